extension ViewerScript {
    /// The page's wiring: one pane (two when comparing) on one scrubber and turn list, the
    /// cursor in the URL, search, the keyboard, the legend, and where the page opens.
    static let wiring = #"""
          const main = new Recording(data), other = data.other ? new Recording(data.other) : null;
          const panes = [new Pane(main, 'here', selectState)];
          if (other) panes.push(new Pane(other, 'other', selectState));
          panes[0].graph.id = 'graph';
          const area = document.getElementById('panes');
          panes.forEach(pane => area.appendChild(pane.box));
          const turns = main.turns;
          let current = 0, selection = null, revealSelection = false;

          // Comparing: the other recording's turn is this one's, shifted so the first divergence
          // lines up on both sides.
          const divergence = data.divergence || null;
          let offset = 0, divergencePosition = null;
          if (other && divergence && !divergence.agree) {
            const here = main.positionOfTurn.get(divergence.turn), there = other.positionOfTurn.get(divergence.otherTurn);
            if (here !== undefined) divergencePosition = here;
            if (here !== undefined && there !== undefined) offset = there - here;
          }

          function render(moved) {
            const t = turns[current];
            panes[0].at(current);
            if (other) panes[1].at(current + offset);
            const differs = other ? differences(panes[0], panes[1]) : null;
            const labels = differs ? new Set(differs.keys()) : null;
            const touched = panes.map(pane => pane.render(selection && selection.pane === pane ? selection.slot : null, labels));
            if (moved) panes.forEach((pane, index) => pane.reveal(touched[index]));
            if (selection && revealSelection) { selection.pane.reveal([selection.slot]); revealSelection = false; }
            const shownWindow = data.window;
            document.getElementById('where').textContent = `turn ${t.t} of ${shownWindow.first}..${shownWindow.last}: ${t.n} (${t.o})`;
            document.body.dataset.turn = t.t;
            scrubber.value = current;
            showCurrentRow();
            const changes = document.getElementById('changes');
            clear(changes);
            changes.appendChild(element('h2', {}, other ? 'what the turn did, here' : 'what the turn did'));
            changes.appendChild(changeList(panes[0], current));
            if (other && panes[1].position !== null) {
              changes.appendChild(element('h2', {}, 'in the other recording'));
              changes.appendChild(changeList(panes[1], panes[1].position));
            }
            if (other) showDifferences(differs, current === divergencePosition);
            if (selection) {
              if (selection.pane.position === null) clear(document.getElementById('details'));
              else showDetails(selection.pane, selection.slot, selection.pane.position);
            }
            const state = selection ? '&state=' + encodeURIComponent(selection.pane.recording.nodes[selection.slot].label) + (selection.pane === panes[0] ? '' : '&pane=other') : '';
            history.replaceState(null, '', '#turn=' + t.t + state);
          }
          function go(pos) { const moved = pos !== current || !document.body.dataset.ready; current = Math.max(0, Math.min(turns.length - 1, pos)); render(moved); }
          function selectState(pane, slot) { selection = { pane, slot }; revealSelection = true; render(false); }

          // The turn list (only the rows in view exist, so a long recording opens as fast as a short
          // one), the scrubber, and the marks beside it for failures and the first divergence.
          const ROW = 20;
          const turnList = document.getElementById('turns'), scrubber = document.getElementById('scrubber');
          const spacer = element('div', { style: `height:${turns.length * ROW}px` });
          const rows = element('ol', { id: 'turn-rows' });
          turnList.append(spacer, rows);
          scrubber.max = turns.length - 1;
          scrubber.addEventListener('input', () => go(Number(scrubber.value)));
          rows.addEventListener('click', event => { const li = event.target.closest('li'); if (li) go(Number(li.dataset.pos)); });
          const failureText = t => (t.f || []).map(f => `${f[0]}: ${f[2]}` + (f[3] === null ? '' : ` (${f[3]})`)).join('\n');
          const ticks = document.getElementById('scrubber-marks');
          const tick = (pos, kind, title) => {
            const mark = element('button', { class: 'tick ' + kind, title, 'data-pos': pos, style: `left:${turns.length > 1 ? pos / (turns.length - 1) * 100 : 0}%` });
            mark.addEventListener('click', () => go(pos));
            ticks.appendChild(mark);
          };
          turns.forEach((t, pos) => { if (t.f) tick(pos, 'failure', failureText(t)); });
          if (divergencePosition !== null) tick(divergencePosition, 'divergence', 'the first divergence: ' + divergence.lines.join('\n'));
          function drawRows() {
            const first = Math.max(0, Math.floor(turnList.scrollTop / ROW) - 5);
            const last = Math.min(turns.length, first + Math.ceil(turnList.clientHeight / ROW) + 10);
            rows.style.top = (first * ROW) + 'px';
            clear(rows);
            for (let pos = first; pos < last; pos++) {
              const t = turns[pos];
              const li = element('li', { 'data-turn': t.t, 'data-pos': pos }, t.t + '  ' + t.n + ' ');
              li.appendChild(element('span', { class: 'origin' }, t.o));
              if (t.f) li.appendChild(element('span', { class: 'failure', title: failureText(t) }, ' ✘'));
              if (pos === divergencePosition) li.appendChild(element('span', { class: 'divergence', title: 'the recordings part ways here' }, ' ≠'));
              if (pos === current) li.classList.add('current');
              rows.appendChild(li);
            }
          }
          function showCurrentRow() {
            const top = current * ROW, height = turnList.clientHeight;
            if (top < turnList.scrollTop) turnList.scrollTop = top;
            else if (top + ROW > turnList.scrollTop + height) turnList.scrollTop = top + ROW - height;
            drawRows();
          }
          turnList.addEventListener('scroll', drawRows);

          // Search: states by label, turns by name.
          const search = document.getElementById('search'), matches = document.getElementById('matches');
          search.addEventListener('input', () => {
            clear(matches);
            const text = search.value.trim().toLowerCase();
            if (!text) { matches.hidden = true; return; }
            const found = [];
            main.nodes.forEach((n, slot) => { if (found.length < 40 && n.label.toLowerCase().includes(text)) found.push(['state ' + n.label, () => selectState(panes[0], slot)]); });
            turns.forEach((t, pos) => { if (found.length < 80 && t.n.toLowerCase().includes(text)) found.push(['turn ' + t.t + '  ' + t.n, () => go(pos)]); });
            found.forEach(([label, action]) => { const li = element('li', {}, label); li.addEventListener('click', () => { matches.hidden = true; action(); }); matches.appendChild(li); });
            if (!found.length) matches.appendChild(element('li', { class: 'hint' }, 'nothing matches'));
            matches.hidden = false;
          });
          search.addEventListener('keydown', event => { if (event.key === 'Escape') { matches.hidden = true; search.blur(); } });

          document.addEventListener('keydown', event => {
            if (event.target === search) return;
            const page = Math.max(1, Math.round(turns.length / 20));
            const moves = { ArrowRight: current + 1, ArrowLeft: current - 1, PageDown: current + page, PageUp: current - page, Home: 0, End: turns.length - 1 };
            const zooms = { '+': 1.25, '=': 1.25, '-': 0.8 };
            if (event.key in moves) { event.preventDefault(); go(moves[event.key]); }
            else if (event.key in zooms) { event.preventDefault(); panes.forEach(pane => pane.zoomBy(zooms[event.key])); }
            else if (event.key === '0') { event.preventDefault(); panes.forEach(pane => pane.fit()); }
          });
          addEventListener('resize', () => panes.forEach(pane => pane.apply()));

          // The legend.
          const legend = document.getElementById('legend');
          legend.appendChild(element('h2', {}, 'legend'));
          for (const [kind, name, meaning] of style.kinds) {
            const row = element('div', { class: 'legend-row' });
            const swatch = svg('svg', { width: 44, height: 22 });
            const g = svg('g', { class: 'node', transform: 'translate(22,11)' });
            const outline = shape(kind, 40, 18); outline.setAttribute('class', 'shape'); g.appendChild(outline); swatch.appendChild(g);
            row.append(swatch, element('span', {}, name + ': ' + meaning));
            legend.appendChild(row);
          }
          const swatchRow = (css, meaning) => {
            const row = element('div', { class: 'legend-row' });
            row.append(element('span', { style: 'display:inline-block;width:40px;height:14px;' + css }), element('span', {}, meaning));
            legend.appendChild(row);
          };
          for (const [mark, fill] of Object.entries(style.fills)) swatchRow(`border:1px solid #374151;background:${fill}`, style.markMeanings[mark]);
          swatchRow('border:2px dashed #d97706', 'touched by the work after the turn (N+)');
          if (other) swatchRow('border:3px solid #7c3aed', 'differs from the other recording after this turn');
          for (const [change, color] of [['added', style.added], ['removed', style.removed]]) {
            const row = element('div', { class: 'legend-row' });
            row.append(element('span', { style: `display:inline-block;width:40px;border-top:3px ${change === 'removed' ? 'dashed' : 'solid'} ${color}` }),
              element('span', {}, 'dependency ' + change + ' in the turn'));
            legend.appendChild(row);
          }
          legend.appendChild(element('p', { class: 'hint' }, `← → one turn, PageUp/PageDown a twentieth, Home/End the first and last; wheel or pinch zooms, drag pans, + − 0 zoom and fit; laid out by ${data.layout === 'dot' ? 'Graphviz dot' : 'the built-in layered layout'}`));

          document.getElementById('title').textContent = data.title + (other ? ' beside ' + data.other.title : '');
          const shownWindow = data.window;
          if (shownWindow.turns < shownWindow.of) {
            document.getElementById('window-note').textContent = `showing turns ${shownWindow.first}..${shownWindow.last} of ${shownWindow.recordingFirst}..${shownWindow.recordingLast}; export html --turns A..B shows others`;
          }
          // The first view: the whole graph when it fits at full size, else full size at its top
          // left; the opening turn's changes are then brought into view.
          panes.forEach(pane => {
            const { width, height } = pane.size();
            if (pane.recording.set.width + 20 <= width && pane.recording.set.height + 20 <= height) pane.fit();
            else { pane.view = { x: -10, y: -10, scale: 1 }; pane.apply(); }
          });
          const hash = new URLSearchParams(location.hash.slice(1));
          const start = main.positionOfTurn.get(Number(hash.get('turn')));
          const chosenPane = hash.get('pane') === 'other' && other ? panes[1] : panes[0];
          if (hash.has('state') && chosenPane.recording.slotOfLabel.has(hash.get('state'))) {
            selection = { pane: chosenPane, slot: chosenPane.recording.slotOfLabel.get(hash.get('state')) };
            revealSelection = true;
          }
          const opening = divergencePosition !== null ? divergencePosition : main.positionOfTurn.get(data.opening);
          go(start !== undefined ? start : opening !== undefined ? opening : turns.length - 1);
          document.body.dataset.firstRenderMs = performance.now().toFixed(1);
          document.body.dataset.ready = 'true';
        })();
        """#
}
