extension ViewerScript {
    /// The side panels: the turn's change list (its events as `turn N` groups them, old → new
    /// and field by field, the work after the turn, the failures), the selected state's details
    /// and its `why`, and, comparing two recordings, what differs between them at the turn.
    static let panels = #"""
          // Why: the engine's graph of causes (steps), each step with its line, detail and causes;
          // the tree is laid out by the rules the terminal's `why` follows.
          const LINKS_PER_SCREEN = 20, STEP_BUDGET = 20000, MAXIMUM_INDENT = 12;
          function subjectStep(recording, slot, pos) {
            const list = recording.decisions[slot];
            let low = 0, high = list.length;
            while (low < high) { const middle = (low + high) >> 1; if (list[middle].pos <= pos) low = middle + 1; else high = middle; }
            return low > 0 ? list[low - 1].step : recording.nodes[slot].restingStep;
          }
          function why(recording, slot, pos) {
            const steps = recording.steps, root = subjectStep(recording, slot, pos);
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
            order.forEach(index => { const parent = tree[index].parent; if (parent !== null) causeCounts[position.get(parent)] += 1; });
            const links = order.map((index, place) => {
              const node = tree[index], step = steps[node.step];
              if (node.parent !== null) { const parent = position.get(node.parent); levels[place] = levels[parent] + (causeCounts[parent] > 1 || levels[parent] > 0 ? 1 : 0); }
              const same = node.sameAs === null ? null : position.get(node.sameAs);
              const line = same === null || same === undefined ? step[0] : step[3] + ' = ' + step[4] + ', see ' + (same < place ? 'above' : 'below');
              return { slot: recording.slotOfLabel.get(step[3]), label: step[3], line, detail: same === null || same === undefined ? step[1] : null, level: Math.min(levels[place], MAXIMUM_INDENT) };
            });
            const cut = tree.length - order.length;
            if (cut > 0 || !complete) {
              const more = complete ? cut + (cut === 1 ? ' more link lies' : ' more links lie') : 'more links lie';
              const depth = complete ? deepest : Math.max(deepest, limit * 2);
              links.push({ note: more + ' deeper than level ' + limit + '; --depth ' + depth + ' shows ' + (complete ? 'them all' : 'more') });
            }
            return links;
          }

          function clear(panel) { while (panel.firstChild) panel.removeChild(panel.firstChild); }
          function stateButton(pane, slot, text) {
            const label = pane.recording.nodes[slot].label;
            const button = element('button', { class: 'link', 'data-state': label }, text === undefined ? label : text);
            button.addEventListener('click', () => selectState(pane, slot));
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

          // The change list of the turn at `pos` in `pane`'s recording.
          function changeList(pane, pos) {
            const t = pane.recording.turns[pos], part = element('div', { class: 'change-list', 'data-pane': pane.name });
            part.appendChild(element('h3', { class: 'turn-heading' }, `turn ${t.t}: ${t.n} (${t.o})`));
            const groups = t.c || [], text = pane.recording.set.lines;
            if (!groups.length && !(t.f || []).length) part.appendChild(element('p', { class: 'hint' }, 'nothing recorded in this turn'));
            for (const [titleIndex, after, entries] of groups) {
              const title = text[titleIndex];
              part.appendChild(element('h4', { class: after ? 'after' : '' }, after ? `${t.t}+ ${title}` : title));
              const list = element('ul', { class: 'plain changes' });
              for (const [lineIndex, slot, ...fieldIndices] of entries) {
                const line = text[lineIndex], fields = fieldIndices.map(index => text[index]);
                const li = element('li', { class: 'change' + (after ? ' after' : '') });
                if (slot >= 0) {
                  const link = element('span', { class: 'link', role: 'button', tabindex: '0', 'data-state': pane.recording.nodes[slot].label }, line);
                  link.addEventListener('click', () => selectState(pane, slot));
                  link.addEventListener('keydown', event => { if (event.key === 'Enter') selectState(pane, slot); });
                  li.appendChild(link);
                } else {
                  li.appendChild(document.createTextNode(line));
                }
                if (fields.length) {
                  const inner = element('ul', { class: 'plain fields' });
                  fields.forEach(field => inner.appendChild(element('li', {}, field)));
                  li.appendChild(inner);
                }
                list.appendChild(li);
              }
              part.appendChild(list);
            }
            for (const [test, kind, message, location] of t.f || []) {
              const failure = element('div', { class: 'failure-entry' });
              failure.appendChild(element('h4', { class: 'failure' }, `✘ failure after turn ${t.t} (${kind})`));
              failure.appendChild(element('div', { class: 'failure-test' }, test));
              failure.appendChild(element('div', { class: 'failure-message' }, message));
              failure.appendChild(element('div', { class: 'failure-location' }, location === null ? 'location not recorded' : location));
              part.appendChild(failure);
            }
            return part;
          }

          function showDetails(pane, slot, pos) {
            const panel = document.getElementById('details');
            clear(panel);
            const recording = pane.recording, node = recording.nodes[slot], state = pane.picture.live.get(slot);
            panel.appendChild(element('h2', { id: 'detail-label' }, node.label));
            panel.appendChild(element('div', {}, node.kind + (node.key !== null ? ' · key ' + node.key : '') + (panes.length > 1 ? ' · ' + pane.caption.textContent : '')));
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
            for (const key of pane.picture.edges) { const [p, c] = key.split(',').map(Number); if (c === slot) reads.push(p); if (p === slot) readers.push(c); }
            list('reads', reads.map(s => stateButton(pane, s)));
            list('read by', readers.map(s => stateButton(pane, s)));
            list('held by', state[4].map(holder => element('span', {}, holder)).concat(state[5] ? [element('span', {}, 'pinned by a UI read')] : []));
            panel.appendChild(element('h3', {}, 'why'));
            const chain = element('ol', { class: 'plain', id: 'detail-why' });
            for (const link of why(recording, slot, pos)) {
              if (link.note) { chain.appendChild(element('li', { class: 'hint' }, link.note)); continue; }
              const li = element('li', { class: 'why-link', style: 'padding-left: ' + (link.level * 12) + 'px' });
              if (link.slot !== undefined && link.line.startsWith(link.label)) {
                li.appendChild(stateButton(pane, link.slot));
                li.appendChild(document.createTextNode(link.line.slice(link.label.length)));
              } else {
                li.appendChild(document.createTextNode(link.line));
              }
              chain.appendChild(li);
              if (link.detail) chain.appendChild(element('li', { class: 'why-detail', style: 'padding-left: ' + (link.level * 12 + 12) + 'px' }, link.detail));
            }
            panel.appendChild(chain);
          }

          // Comparing: the labels whose value, status or reads differ, or that exist on one side only.
          function differences(here, there) {
            const found = new Map();
            const values = (pane) => new Map([...pane.picture.live].map(([slot, state]) => [pane.recording.nodes[slot].label, state]));
            const mine = values(here), theirs = values(there);
            const myReads = here.recording.readsByLabel(here.picture), theirReads = there.recording.readsByLabel(there.picture);
            const text = state => state === undefined ? 'absent' : (state[1] === null ? 'not computed' : state[1]) + (state[3] ? ' · ' + state[3] : '');
            for (const label of new Set([...mine.keys(), ...theirs.keys()])) {
              const a = mine.get(label), b = theirs.get(label);
              const readsA = (myReads.get(label) || []).join(', '), readsB = (theirReads.get(label) || []).join(', ');
              if (text(a) !== text(b)) found.set(label, `${label}: here ${text(a)}; in the other ${text(b)}`);
              else if (readsA !== readsB) found.set(label, `${label} reads: here [${readsA}]; in the other [${readsB}]`);
            }
            return found;
          }
          function showDifferences(found, divergenceHere) {
            const panel = document.getElementById('differences');
            clear(panel);
            panel.appendChild(element('h2', {}, 'compared with the other recording'));
            const divergence = data.divergence;
            if (divergence.agree) {
              panel.appendChild(element('p', { class: 'hint' }, `the recordings agree on all ${divergence.turnsCompared} turns compared`));
            } else if (divergenceHere) {
              panel.appendChild(element('h3', {}, 'the first divergence'));
              const lines = element('ul', { class: 'plain', id: 'divergence-lines' });
              divergence.lines.forEach(line => lines.appendChild(element('li', {}, line)));
              panel.appendChild(lines);
            }
            panel.appendChild(element('h3', {}, found.size ? `${found.size} ${found.size === 1 ? 'state differs' : 'states differ'} after this turn` : 'no state differs after this turn'));
            const list = element('ul', { class: 'plain', id: 'differing' });
            [...found.values()].slice(0, 200).forEach(line => list.appendChild(element('li', {}, line)));
            panel.appendChild(list);
          }
        """#
}
