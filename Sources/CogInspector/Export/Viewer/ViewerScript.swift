/// The viewer page's style sheet and script. The script reads the embedded data, rebuilds the
/// graph at a turn from the keyframe before it, and draws it as SVG; every recorded string
/// reaches the page through `textContent` or an attribute, never as markup.
enum ViewerScript {
    static let styles = #"""
        * { box-sizing: border-box; }
        body { margin: 0; font: 13px/1.35 system-ui, sans-serif; color: #111827; display: grid; height: 100vh;
          grid-template: "head head head" auto "turns graph side" 1fr / 300px 1fr 360px; }
        header { grid-area: head; padding: 8px 12px; border-bottom: 1px solid #d1d5db; display: flex; gap: 12px;
          align-items: center; position: relative; }
        #search { margin-left: auto; width: 300px; padding: 4px 6px; }
        #matches { position: absolute; right: 12px; top: 36px; width: 420px; max-height: 60vh; overflow: auto; z-index: 2;
          background: #fff; border: 1px solid #9ca3af; list-style: none; margin: 0; padding: 4px; }
        #matches li { padding: 2px 4px; cursor: pointer; } #matches li:hover { background: #eef2ff; }
        nav { grid-area: turns; display: flex; flex-direction: column; border-right: 1px solid #d1d5db; min-height: 0; }
        #scrubber { margin: 8px; }
        #turns { overflow: auto; flex: 1; position: relative; }
        #turn-rows { list-style: none; margin: 0; padding: 0; position: absolute; left: 0; right: 0; top: 0; }
        #turns li { height: 20px; padding: 2px 8px; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        #turns li.current { background: #dbeafe; font-weight: 600; }
        #turns li .origin { color: #6b7280; } #turns li .failure { color: #dc2626; font-weight: 700; }
        main { grid-area: graph; overflow: auto; background: #fafafa; }
        aside { grid-area: side; overflow: auto; border-left: 1px solid #d1d5db; padding: 8px 12px; }
        .node { cursor: pointer; } .node .shape { fill: #fff; stroke: #374151; stroke-width: 1.2; }
        .node.selected .shape { stroke: #2563eb; stroke-width: 3; }
        .node text { font-size: 11px; text-anchor: middle; pointer-events: none; }
        .node .value { fill: #374151; } .node.notified .shape { stroke-dasharray: 4 2; }
        .cluster { fill: none; stroke: #9ca3af; stroke-dasharray: 5 3; } .cluster-label { font-size: 10px; fill: #6b7280; }
        .edge { stroke: #6b7280; stroke-width: 1.2; fill: none; marker-end: url(#arrow); }
        .edge.added { stroke-width: 2.5; } .edge.removed { stroke-dasharray: 6 4; stroke-width: 2; }
        h2 { font-size: 14px; margin: 10px 0 4px; } h3 { font-size: 12px; margin: 10px 0 2px; color: #374151; }
        .hint { color: #6b7280; } ul.plain { margin: 2px 0; padding-left: 16px; }
        button.link { border: 0; background: none; color: #1d4ed8; cursor: pointer; padding: 0; font: inherit; text-decoration: underline; }
        details { margin-left: 12px; } summary { cursor: pointer; color: #374151; } .leaf { margin-left: 12px; }
        .legend-row { display: flex; align-items: center; gap: 6px; margin: 2px 0; }
        """#

    static let source = #"""
        (function () {
          'use strict';
          const data = JSON.parse(document.getElementById('cog-data').textContent);
          const SVG = 'http://www.w3.org/2000/svg';
          const turns = data.turns, nodes = data.nodes, style = data.style;
          const bySlot = nodes.map(n => ({ label: n[0], kind: n[1], declaration: n[2], key: n[3], x: n[4], y: n[5], w: n[6], h: n[7] }));
          const decisions = nodes.map(() => []);
          turns.forEach((t, pos) => (t.d || []).forEach(d => decisions[d[0]].push({ pos, step: d[1], idle: d[2], at: d[3] })));
          const positionOfTurn = new Map(turns.map((t, pos) => [t.t, pos]));
          const slotOfLabel = new Map(bySlot.map((n, slot) => [n.label, slot]));
          let current = 0, selected = null, picture = null;

          function element(name, attributes, text) {
            const made = document.createElement(name);
            for (const [key, value] of Object.entries(attributes || {})) made.setAttribute(key, value);
            if (text !== undefined) made.textContent = text;
            return made;
          }
          function svg(name, attributes) {
            const made = document.createElementNS(SVG, name);
            for (const [key, value] of Object.entries(attributes || {})) made.setAttribute(key, String(value));
            return made;
          }
          const shorten = (text, width) => text.length > width ? text.slice(0, width - 1) + '…' : text;

          // The graph after the turn at `pos`: the keyframe before it, then each turn's changes.
          function pictureAt(pos) {
            const keyframe = data.keyframes[Math.floor(pos / data.keyframeInterval)];
            const live = new Map(keyframe.nodes.map(n => [n[0], n]));
            const edges = new Set(keyframe.edges.map(e => e[0] + ',' + e[1]));
            for (let p = keyframe.at + 1; p <= pos; p++) {
              const t = turns[p];
              (t.u || []).forEach(n => live.set(n[0], n));
              (t.x || []).forEach(slot => live.delete(slot));
              (t.ea || []).forEach(e => edges.add(e[0] + ',' + e[1]));
              (t.er || []).forEach(e => edges.delete(e[0] + ',' + e[1]));
            }
            return { live, edges };
          }

          // Drawing.
          const graph = document.getElementById('graph');
          graph.setAttribute('width', data.width); graph.setAttribute('height', data.height);
          graph.setAttribute('viewBox', `0 0 ${data.width} ${data.height}`);
          const defs = svg('defs');
          const marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
          marker.appendChild(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#6b7280' }));
          defs.appendChild(marker); graph.appendChild(defs);
          const clusterLayer = svg('g'), edgeLayer = svg('g'), nodeLayer = svg('g');
          graph.append(clusterLayer, edgeLayer, nodeLayer);
          const groups = new Map();
          bySlot.forEach((n, slot) => { if (n.key !== null && n.declaration) { if (!groups.has(n.declaration)) groups.set(n.declaration, []); groups.get(n.declaration).push(slot); } });
          for (const [declaration, members] of groups) {
            if (members.length < 2) continue;
            const left = Math.min(...members.map(s => bySlot[s].x - bySlot[s].w / 2)) - 8;
            const right = Math.max(...members.map(s => bySlot[s].x + bySlot[s].w / 2)) + 8;
            const top = Math.min(...members.map(s => bySlot[s].y - bySlot[s].h / 2)) - 16;
            const bottom = Math.max(...members.map(s => bySlot[s].y + bySlot[s].h / 2)) + 8;
            clusterLayer.appendChild(svg('rect', { class: 'cluster', x: left, y: top, width: right - left, height: bottom - top, rx: 6 }));
            const label = svg('text', { class: 'cluster-label', x: left + 6, y: top + 11 }); label.textContent = declaration;
            clusterLayer.appendChild(label);
          }
          function shape(kind, w, h) {
            const x = -w / 2, y = -h / 2;
            switch (kind) {
              case 'manual': return svg('rect', { x, y, width: w, height: h });
              case 'automatic': return svg('ellipse', { rx: w / 2, ry: h / 2 });
              case 'async': return svg('polygon', { points: [[x + 12, y], [-x - 12, y], [-x, 0], [-x - 12, -y], [x + 12, -y], [x, 0]].join(' ') });
              case 'reaction': case 'watch': return svg('polygon', { points: [[0, y], [-x, 0], [0, -y], [x, 0]].join(' ') });
              case 'export': return svg('polygon', { points: [[x, y], [-x - 12, y], [-x, 0], [-x - 12, -y], [x, -y]].join(' ') });
              default: return svg('path', { d: `M ${x} ${y + 6} h ${w} v ${h - 6} h ${-w} z M ${x} ${y + 6} v -6 h 24 v 6` });
            }
          }
          const drawn = bySlot.map((n, slot) => {
            const g = svg('g', { class: 'node', transform: `translate(${n.x},${n.y})`, 'data-label': n.label, 'data-kind': n.kind });
            const outline = shape(n.kind, n.w, n.h); outline.setAttribute('class', 'shape');
            g.appendChild(outline);
            if (n.kind === 'watch') g.appendChild(svg('path', { d: `M ${-n.w / 2 + 8} -4 v 8 M ${n.w / 2 - 8} -4 v 8`, stroke: '#374151' }));
            const label = svg('text', { y: -4, class: 'label' }); label.textContent = shorten(n.label, 48);
            const value = svg('text', { y: 12, class: 'value' });
            g.append(label, value);
            g.addEventListener('click', () => selectState(slot));
            nodeLayer.appendChild(g);
            return { g, outline, value };
          });

          function render() {
            const t = turns[current];
            picture = pictureAt(current);
            const marks = new Map((t.m || []).map(m => [m[0], m]));
            drawn.forEach((d, slot) => {
              const state = picture.live.get(slot);
              d.g.style.display = state ? '' : 'none';
              const mark = marks.get(slot);
              const flags = mark ? mark[1] : [];
              d.g.setAttribute('class', ['node', ...flags, slot === selected ? 'selected' : ''].join(' ').trim());
              d.g.setAttribute('data-marks', flags.join(' '));
              const fill = flags.map(f => style.fills[f]).find(Boolean);
              d.outline.style.fill = fill || '';
              if (!state) return;
              let text = state[1] === null ? '' : state[1];
              if (state[3]) text = (text ? text + ' · ' : '') + state[3];
              if (mark && mark[2].length) text += ' ' + mark[2].join(' ');
              d.value.textContent = shorten(text, Math.max(8, Math.floor(bySlot[slot].w / 6.5)));
            });
            while (edgeLayer.firstChild) edgeLayer.removeChild(edgeLayer.firstChild);
            const changes = new Map((t.me || []).map(e => [e[0] + ',' + e[1], e[2]]));
            const shown = new Set(picture.edges);
            for (const [key, change] of changes) if (change === 'removed') shown.add(key);
            for (const key of shown) {
              const [p, c] = key.split(',').map(Number), from = bySlot[p], to = bySlot[c];
              const down = to.y >= from.y;
              const line = svg('path', { class: 'edge' + (changes.has(key) ? ' ' + changes.get(key) : ''),
                d: `M ${from.x} ${from.y + (down ? from.h / 2 : -from.h / 2)} L ${to.x} ${to.y + (down ? -to.h / 2 : to.h / 2)}`,
                'data-from': from.label, 'data-to': to.label });
              if (changes.has(key)) line.style.stroke = changes.get(key) === 'added' ? style.added : style.removed;
              edgeLayer.appendChild(line);
            }
            document.getElementById('where').textContent = `turn ${t.t} of ${turns[0].t}..${turns[turns.length - 1].t}: ${t.n} (${t.o})`;
            document.body.dataset.turn = t.t;
            scrubber.value = current;
            showCurrentRow();
            if (selected !== null) showDetails(selected);
            history.replaceState(null, '', '#turn=' + t.t + (selected !== null ? '&state=' + encodeURIComponent(bySlot[selected].label) : ''));
          }

          // The turn list (only the rows in view exist, so a long recording opens as fast as a short
          // one) and the scrubber.
          const ROW = 20;
          const turnList = document.getElementById('turns'), scrubber = document.getElementById('scrubber');
          const spacer = element('div', { style: `height:${turns.length * ROW}px` });
          const rows = element('ol', { id: 'turn-rows' });
          turnList.append(spacer, rows);
          scrubber.max = turns.length - 1;
          scrubber.addEventListener('input', () => go(Number(scrubber.value)));
          rows.addEventListener('click', event => { const li = event.target.closest('li'); if (li) go(Number(li.dataset.pos)); });
          function drawRows() {
            const first = Math.max(0, Math.floor(turnList.scrollTop / ROW) - 5);
            const last = Math.min(turns.length, first + Math.ceil(turnList.clientHeight / ROW) + 10);
            rows.style.top = (first * ROW) + 'px';
            while (rows.firstChild) rows.removeChild(rows.firstChild);
            for (let pos = first; pos < last; pos++) {
              const t = turns[pos];
              const li = element('li', { 'data-turn': t.t, 'data-pos': pos }, t.t + '  ' + t.n + ' ');
              li.appendChild(element('span', { class: 'origin' }, t.o));
              if (t.f) li.appendChild(element('span', { class: 'failure', title: 'a failure was reported after this turn' }, ' ✘'));
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
          function go(pos) { current = Math.max(0, Math.min(turns.length - 1, pos)); render(); }

          // Why: the engine's graph of causes (data.steps), each step with its line, detail and
          // causes; the tree is laid out by the rules the terminal's `why` follows.
          const steps = data.steps || [];
          const LINKS_PER_SCREEN = 20, STEP_BUDGET = 20000, MAXIMUM_INDENT = 12;
          function subjectStep(slot, pos) {
            const list = decisions[slot];
            let low = 0, high = list.length;
            while (low < high) { const middle = (low + high) >> 1; if (list[middle].pos <= pos) low = middle + 1; else high = middle; }
            return low > 0 ? list[low - 1].step : nodes[slot][8];
          }
          function why(slot, pos) {
            const root = subjectStep(slot, pos);
            if (root === null || root === undefined || root < 0) return [];
            const tree = [{ step: root, parent: null, depth: 0, children: [], sameAs: null }];
            const expanded = new Map([[root, 0]]);
            let complete = true;
            for (let next = 0; next < tree.length; next++) {
              const node = tree[next], causes = steps[node.step][2];
              if (node.sameAs !== null) continue;
              if (tree.length >= STEP_BUDGET) { complete = complete && causes.length === 0; continue; }
              for (const [child] of causes) {
                if (child < 0) continue;
                const entry = { step: child, parent: next, depth: node.depth + 1, children: [], sameAs: null };
                if (expanded.has(child)) entry.sameAs = expanded.get(child); else expanded.set(child, tree.length);
                node.children.push(tree.length);
                tree.push(entry);
              }
            }
            const deepest = tree.reduce((most, node) => Math.max(most, node.depth), 0);
            const perLevel = new Array(deepest + 1).fill(0);
            tree.forEach(node => perLevel[node.depth] += 1);
            let limit = 0, shown = 0;
            for (let level = 0; level <= deepest; level++) { shown += perLevel[level]; if (shown > LINKS_PER_SCREEN && level > 1) break; limit = level; }
            const order = [], stack = [0];
            while (stack.length) { const index = stack.pop(); if (tree[index].depth > limit) continue; order.push(index); for (let c = tree[index].children.length - 1; c >= 0; c--) stack.push(tree[index].children[c]); }
            const position = new Map(order.map((index, place) => [index, place]));
            const causeCounts = order.map(() => 0), levels = order.map(() => 0);
            order.forEach((index, place) => { const parent = tree[index].parent; if (parent !== null) causeCounts[position.get(parent)] += 1; });
            const links = order.map((index, place) => {
              const node = tree[index], step = steps[node.step];
              if (node.parent !== null) { const parent = position.get(node.parent); levels[place] = levels[parent] + (causeCounts[parent] > 1 || levels[parent] > 0 ? 1 : 0); }
              const same = node.sameAs === null ? null : position.get(node.sameAs);
              const line = same === null || same === undefined ? step[0] : step[3] + ' = ' + step[4] + ', see ' + (same < place ? 'above' : 'below');
              return { slot: slotOfLabel.get(step[3]), label: step[3], line, detail: same === null || same === undefined ? step[1] : null, level: Math.min(levels[place], MAXIMUM_INDENT) };
            });
            const cut = tree.length - order.length;
            if (cut > 0 || !complete) {
              const more = complete ? cut + (cut === 1 ? ' more link lies' : ' more links lie') : 'more links lie';
              const depth = complete ? deepest : Math.max(deepest, limit * 2);
              links.push({ note: more + ' deeper than level ' + limit + '; --depth ' + depth + ' shows ' + (complete ? 'them all' : 'more') });
            }
            return links;
          }

          function stateButton(slot) {
            const button = element('button', { class: 'link', 'data-state': bySlot[slot].label }, bySlot[slot].label);
            button.addEventListener('click', () => selectState(slot));
            return button;
          }
          function valueTree(value) {
            if (value === null || typeof value !== 'object') return element('div', { class: 'leaf' }, JSON.stringify(value));
            const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
            const details = element('details', { open: '' });
            details.appendChild(element('summary', {}, Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`));
            for (const [key, inner] of entries) {
              const row = element('div');
              row.appendChild(element('span', {}, key + ': '));
              row.appendChild(valueTree(inner));
              details.appendChild(row);
            }
            return details;
          }
          function showDetails(slot) {
            const panel = document.getElementById('details');
            while (panel.firstChild) panel.removeChild(panel.firstChild);
            const node = bySlot[slot], state = picture.live.get(slot);
            panel.appendChild(element('h2', { id: 'detail-label' }, node.label));
            panel.appendChild(element('div', {}, node.kind + (node.key !== null ? ' · key ' + node.key : '')));
            if (!state) { panel.appendChild(element('p', { class: 'hint' }, 'does not exist after this turn')); return; }
            panel.appendChild(element('h3', {}, 'value'));
            panel.appendChild(element('div', { id: 'detail-value' }, state[1] === null ? 'not computed' : state[1]));
            if (state[2] !== null && typeof state[2] === 'object') panel.appendChild(valueTree(state[2]));
            if (state[3]) panel.appendChild(element('div', {}, 'status: ' + state[3]));
            const list = (title, items) => {
              panel.appendChild(element('h3', {}, title));
              const ul = element('ul', { class: 'plain' });
              if (!items.length) ul.appendChild(element('li', { class: 'hint' }, 'none'));
              items.forEach(item => { const li = element('li'); li.appendChild(item); ul.appendChild(li); });
              panel.appendChild(ul);
            };
            const reads = [], readers = [];
            for (const key of picture.edges) { const [p, c] = key.split(',').map(Number); if (c === slot) reads.push(p); if (p === slot) readers.push(c); }
            list('reads', reads.map(stateButton));
            list('read by', readers.map(stateButton));
            list('held by', state[4].map(holder => element('span', {}, holder)).concat(state[5] ? [element('span', {}, 'pinned by a UI read')] : []));
            panel.appendChild(element('h3', {}, 'why'));
            const chain = element('ol', { class: 'plain', id: 'detail-why' });
            for (const link of why(slot, current)) {
              if (link.note) { chain.appendChild(element('li', { class: 'hint' }, link.note)); continue; }
              const li = element('li', { class: 'why-link', style: 'padding-left: ' + (link.level * 12) + 'px' });
              if (link.slot !== undefined && link.line.startsWith(link.label)) {
                li.appendChild(stateButton(link.slot));
                li.appendChild(document.createTextNode(link.line.slice(link.label.length)));
              } else {
                li.appendChild(document.createTextNode(link.line));
              }
              chain.appendChild(li);
              if (link.detail) chain.appendChild(element('li', { class: 'why-detail', style: 'padding-left: ' + (link.level * 12 + 12) + 'px' }, link.detail));
            }
            panel.appendChild(chain);
          }
          function selectState(slot) { selected = slot; render(); }

          // Search: states by label, turns by name.
          const search = document.getElementById('search'), matches = document.getElementById('matches');
          search.addEventListener('input', () => {
            while (matches.firstChild) matches.removeChild(matches.firstChild);
            const text = search.value.trim().toLowerCase();
            if (!text) { matches.hidden = true; return; }
            const found = [];
            bySlot.forEach((n, slot) => { if (found.length < 40 && n.label.toLowerCase().includes(text)) found.push(['state ' + n.label, () => selectState(slot)]); });
            turns.forEach((t, pos) => { if (found.length < 80 && t.n.toLowerCase().includes(text)) found.push(['turn ' + t.t + '  ' + t.n, () => go(pos)]); });
            found.forEach(([label, action]) => { const li = element('li', {}, label); li.addEventListener('click', () => { matches.hidden = true; action(); }); matches.appendChild(li); });
            if (!found.length) matches.appendChild(element('li', { class: 'hint' }, 'nothing matches'));
            matches.hidden = false;
          });
          search.addEventListener('keydown', event => { if (event.key === 'Escape') { matches.hidden = true; search.blur(); } });

          document.addEventListener('keydown', event => {
            if (event.target === search) return;
            const moves = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: turns.length - 1 };
            if (!(event.key in moves)) return;
            event.preventDefault();
            go(moves[event.key]);
          });

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
          for (const [mark, fill] of Object.entries(style.fills)) {
            const row = element('div', { class: 'legend-row' });
            const swatch = element('span', { style: `display:inline-block;width:40px;height:14px;border:1px solid #374151;background:${fill}` });
            row.append(swatch, element('span', {}, style.markMeanings[mark]));
            legend.appendChild(row);
          }
          for (const [change, color] of [['added', style.added], ['removed', style.removed]]) {
            const row = element('div', { class: 'legend-row' });
            row.append(element('span', { style: `display:inline-block;width:40px;border-top:3px ${change === 'removed' ? 'dashed' : 'solid'} ${color}` }),
              element('span', {}, 'dependency ' + change + ' in the turn'));
            legend.appendChild(row);
          }
          legend.appendChild(element('p', { class: 'hint' }, `← → one turn, Home/End the first and last; laid out by ${data.layout === 'dot' ? 'Graphviz dot' : 'the built-in layered layout'}`));

          document.getElementById('title').textContent = data.title;
          const hash = new URLSearchParams(location.hash.slice(1));
          const start = positionOfTurn.get(Number(hash.get('turn')));
          if (hash.has('state') && slotOfLabel.has(hash.get('state'))) selected = slotOfLabel.get(hash.get('state'));
          go(start === undefined ? turns.length - 1 : start);
          document.body.dataset.firstRenderMs = performance.now().toFixed(1);
          document.body.dataset.ready = 'true';
        })();
        """#
}
