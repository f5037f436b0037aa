extension ViewerScript {
    /// A recording's data as the page reads it (the keyframe before a turn, then each turn's
    /// changes), and a pane that draws it: the SVG graph, with zoom, pan and fit, and a view
    /// that moves to what changed or was selected unless it is already in sight.
    static let pane = #"""
          function Recording(set) {
            this.set = set;
            this.turns = set.turns;
            this.nodes = set.nodes.map(n => ({ label: n[0], kind: n[1], declaration: n[2], key: n[3], x: n[4], y: n[5], w: n[6], h: n[7], restingStep: n[8] }));
            this.decisions = this.nodes.map(() => []);
            this.turns.forEach((t, pos) => (t.d || []).forEach(d => this.decisions[d[0]].push({ pos, step: d[1] })));
            this.positionOfTurn = new Map(this.turns.map((t, pos) => [t.t, pos]));
            this.slotOfLabel = new Map(this.nodes.map((n, slot) => [n.label, slot]));
            this.steps = set.steps || [];
          }
          // The graph after the turn at `pos`: the keyframe before it, then each turn's changes.
          Recording.prototype.pictureAt = function (pos) {
            const keyframe = this.set.keyframes[Math.floor(pos / data.keyframeInterval)];
            const live = new Map(keyframe.nodes.map(n => [n[0], n]));
            const edges = new Set(keyframe.edges.map(e => e[0] + ',' + e[1]));
            for (let p = keyframe.at + 1; p <= pos; p++) {
              const t = this.turns[p];
              (t.u || []).forEach(n => live.set(n[0], n));
              (t.x || []).forEach(slot => live.delete(slot));
              (t.ea || []).forEach(e => edges.add(e[0] + ',' + e[1]));
              (t.er || []).forEach(e => edges.delete(e[0] + ',' + e[1]));
            }
            return { live, edges };
          };
          // The labels each state reads after the turn at `pos`, for comparing two recordings.
          Recording.prototype.readsByLabel = function (picture) {
            const reads = new Map();
            for (const key of picture.edges) {
              const [p, c] = key.split(',').map(Number), label = this.nodes[c].label;
              if (!reads.has(label)) reads.set(label, []);
              reads.get(label).push(this.nodes[p].label);
            }
            for (const list of reads.values()) list.sort();
            return reads;
          };

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

          function Pane(recording, name, onSelect) {
            this.recording = recording;
            this.name = name;
            this.box = element('div', { class: 'pane', 'data-pane': name });
            this.caption = element('div', { class: 'caption' });
            const tools = element('div', { class: 'tools' });
            for (const [label, title, action] of [['+', 'zoom in (+)', () => this.zoomBy(1.25)], ['−', 'zoom out (-)', () => this.zoomBy(0.8)], ['fit', 'fit the graph to the pane (0)', () => this.fit()]]) {
              const button = element('button', { class: 'tool', title, 'data-tool': label }, label);
              button.addEventListener('click', action);
              tools.appendChild(button);
            }
            this.graph = svg('svg', { class: 'graph', role: 'img', 'aria-label': 'the graph after the turn' });
            this.box.append(this.caption, tools, this.graph);
            const defs = svg('defs');
            const marker = svg('marker', { id: 'arrow-' + name, viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
            marker.appendChild(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#6b7280' }));
            defs.appendChild(marker); this.graph.appendChild(defs);
            const clusterLayer = svg('g');
            this.edgeLayer = svg('g'); this.nodeLayer = svg('g');
            this.graph.append(clusterLayer, this.edgeLayer, this.nodeLayer);
            const nodes = recording.nodes, groups = new Map();
            nodes.forEach((n, slot) => { if (n.key !== null && n.declaration) { if (!groups.has(n.declaration)) groups.set(n.declaration, []); groups.get(n.declaration).push(slot); } });
            for (const [declaration, members] of groups) {
              if (members.length < 2) continue;
              const left = Math.min(...members.map(s => nodes[s].x - nodes[s].w / 2)) - 8;
              const right = Math.max(...members.map(s => nodes[s].x + nodes[s].w / 2)) + 8;
              const top = Math.min(...members.map(s => nodes[s].y - nodes[s].h / 2)) - 16;
              const bottom = Math.max(...members.map(s => nodes[s].y + nodes[s].h / 2)) + 8;
              clusterLayer.appendChild(svg('rect', { class: 'cluster', x: left, y: top, width: right - left, height: bottom - top, rx: 6 }));
              const label = svg('text', { class: 'cluster-label', x: left + 6, y: top + 11 }); label.textContent = declaration;
              clusterLayer.appendChild(label);
            }
            this.drawn = nodes.map((n, slot) => {
              const g = svg('g', { class: 'node', transform: `translate(${n.x},${n.y})`, 'data-label': n.label, 'data-kind': n.kind });
              const outline = shape(n.kind, n.w, n.h); outline.setAttribute('class', 'shape');
              g.appendChild(outline);
              if (n.kind === 'watch') g.appendChild(svg('path', { d: `M ${-n.w / 2 + 8} -4 v 8 M ${n.w / 2 - 8} -4 v 8`, stroke: '#374151' }));
              const label = svg('text', { y: -4, class: 'label' }); label.textContent = shorten(n.label, 48);
              const value = svg('text', { y: 12, class: 'value' });
              g.append(label, value);
              g.addEventListener('click', () => { if (!this.dragged) onSelect(this, slot); });
              this.nodeLayer.appendChild(g);
              return { g, outline, value };
            });
            this.view = { x: 0, y: 0, scale: 1 };
            this.listen();
          }

          // Moves the pane to the turn at `pos` of its recording (none when outside it).
          Pane.prototype.at = function (pos) {
            const inside = pos >= 0 && pos < this.recording.turns.length;
            this.position = inside ? pos : null;
            this.picture = inside ? this.recording.pictureAt(pos) : { live: new Map(), edges: new Set() };
            const t = inside ? this.recording.turns[pos] : null;
            this.caption.textContent = this.recording.set.source + (t ? ` · turn ${t.t}` : ' · no turn here');
          };
          // Draws the picture of the turn `at` chose; `differs` holds the labels whose values or
          // reads differ in the other recording. Returns the slots the turn touched.
          Pane.prototype.render = function (selected, differs) {
            const recording = this.recording, picture = this.picture;
            const t = this.position === null ? {} : recording.turns[this.position];
            const marks = new Map((t.m || []).map(m => [m[0], m]));
            const after = new Set(t.a || []);
            const touched = [];
            this.drawn.forEach((d, slot) => {
              const state = picture.live.get(slot), node = recording.nodes[slot];
              d.g.style.display = state ? '' : 'none';
              const mark = marks.get(slot);
              const flags = (mark ? mark[1] : []).concat(after.has(slot) ? ['after'] : []);
              const differing = differs && differs.has(node.label);
              d.g.setAttribute('class', ['node', ...flags, slot === selected ? 'selected' : '', differing ? 'differs' : ''].join(' ').replace(/ +/g, ' ').trim());
              d.g.setAttribute('data-marks', flags.join(' '));
              const fill = flags.map(f => style.fills[f]).find(Boolean);
              d.outline.style.fill = fill || '';
              if (!state) return;
              if (flags.length || (mark && mark[2].length) || differing) touched.push(slot);
              let text = state[1] === null ? '' : state[1];
              if (state[3]) text = (text ? text + ' · ' : '') + state[3];
              if (mark && mark[2].length) text += ' ' + mark[2].join(' ');
              d.value.textContent = shorten(text, Math.max(8, Math.floor(node.w / 6.5)));
            });
            while (this.edgeLayer.firstChild) this.edgeLayer.removeChild(this.edgeLayer.firstChild);
            const changes = new Map((t.me || []).map(e => [e[0] + ',' + e[1], e[2]]));
            const shown = new Set(picture.edges);
            for (const [key, change] of changes) if (change === 'removed') shown.add(key);
            for (const key of shown) {
              const [p, c] = key.split(',').map(Number), from = recording.nodes[p], to = recording.nodes[c];
              const down = to.y >= from.y;
              const line = svg('path', { class: 'edge' + (changes.has(key) ? ' ' + changes.get(key) : ''),
                d: `M ${from.x} ${from.y + (down ? from.h / 2 : -from.h / 2)} L ${to.x} ${to.y + (down ? -to.h / 2 : to.h / 2)}`,
                'marker-end': `url(#arrow-${this.name})`, 'data-from': from.label, 'data-to': to.label });
              if (changes.has(key)) {
                line.style.stroke = changes.get(key) === 'added' ? style.added : style.removed;
                for (const slot of [p, c]) if (picture.live.has(slot) && !touched.includes(slot)) touched.push(slot);
              }
              this.edgeLayer.appendChild(line);
            }
            return touched;
          };

          // Zoom and pan: the view is the graph's point at the pane's top left and a scale; the
          // SVG's viewBox shows it.
          Pane.prototype.size = function () { return { width: Math.max(1, this.box.clientWidth), height: Math.max(1, this.box.clientHeight) }; };
          Pane.prototype.apply = function () {
            const { width, height } = this.size(), view = this.view;
            this.graph.setAttribute('viewBox', `${view.x.toFixed(1)} ${view.y.toFixed(1)} ${(width / view.scale).toFixed(1)} ${(height / view.scale).toFixed(1)}`);
            this.graph.dataset.scale = view.scale.toFixed(3);
          };
          Pane.prototype.zoomBy = function (factor, atX, atY) {
            const { width, height } = this.size(), view = this.view;
            const px = atX === undefined ? width / 2 : atX, py = atY === undefined ? height / 2 : atY;
            const scale = Math.min(8, Math.max(0.02, view.scale * factor));
            const gx = view.x + px / view.scale, gy = view.y + py / view.scale;
            this.view = { x: gx - px / scale, y: gy - py / scale, scale };
            this.apply();
          };
          Pane.prototype.fit = function () {
            const { width, height } = this.size(), w = this.recording.set.width + 20, h = this.recording.set.height + 20;
            const scale = Math.min(2, width / w, height / h);
            this.view = { x: -10 - (width / scale - w) / 2, y: -10 - (height / scale - h) / 2, scale };
            this.apply();
          };
          // Brings the nodes at `slots` into view: nothing moves when they all are in sight;
          // otherwise the view centres on them, zooming out only when they do not fit.
          Pane.prototype.reveal = function (slots) {
            if (!slots.length) return;
            const nodes = this.recording.nodes, margin = 16;
            const left = Math.min(...slots.map(s => nodes[s].x - nodes[s].w / 2)) - margin;
            const right = Math.max(...slots.map(s => nodes[s].x + nodes[s].w / 2)) + margin;
            const top = Math.min(...slots.map(s => nodes[s].y - nodes[s].h / 2)) - margin;
            const bottom = Math.max(...slots.map(s => nodes[s].y + nodes[s].h / 2)) + margin;
            const { width, height } = this.size(), view = this.view;
            const viewWidth = width / view.scale, viewHeight = height / view.scale;
            if (left >= view.x && right <= view.x + viewWidth && top >= view.y && bottom <= view.y + viewHeight) return;
            const scale = Math.min(view.scale, width / (right - left), height / (bottom - top));
            this.view = { x: (left + right) / 2 - width / scale / 2, y: (top + bottom) / 2 - height / scale / 2, scale };
            this.apply();
          };
          Pane.prototype.listen = function () {
            this.box.addEventListener('wheel', event => {
              event.preventDefault();
              const bounds = this.box.getBoundingClientRect();
              // A pinch on a touchpad arrives as a wheel with ctrlKey: the same zoom, finer.
              const factor = Math.exp(-event.deltaY * (event.ctrlKey ? 0.01 : 0.0015));
              this.zoomBy(factor, event.clientX - bounds.left, event.clientY - bounds.top);
            }, { passive: false });
            const pointers = new Map();
            let last = null, spread = null;
            this.box.addEventListener('pointerdown', event => {
              if (event.target.closest('button')) return;
              pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
              last = { x: event.clientX, y: event.clientY }; this.dragged = false;
            });
            this.box.addEventListener('pointermove', event => {
              if (!pointers.has(event.pointerId)) return;
              pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
              if (pointers.size === 2) {
                // Two fingers: the change of their distance zooms around their midpoint.
                const [a, b] = [...pointers.values()], distance = Math.hypot(a.x - b.x, a.y - b.y);
                const bounds = this.box.getBoundingClientRect();
                if (spread) this.zoomBy(distance / spread, (a.x + b.x) / 2 - bounds.left, (a.y + b.y) / 2 - bounds.top);
                spread = distance; this.dragged = true;
                return;
              }
              const dx = event.clientX - last.x, dy = event.clientY - last.y;
              if (!this.dragged && Math.hypot(dx, dy) < 4) return;
              // Captured only once it is a drag, so a click still reaches the node under it.
              if (!this.dragged) this.box.setPointerCapture(event.pointerId);
              this.dragged = true;
              this.view.x -= dx / this.view.scale; this.view.y -= dy / this.view.scale;
              last = { x: event.clientX, y: event.clientY };
              this.apply();
            });
            const end = event => { pointers.delete(event.pointerId); if (pointers.size < 2) spread = null; setTimeout(() => { this.dragged = false; }, 0); };
            this.box.addEventListener('pointerup', end);
            this.box.addEventListener('pointercancel', end);
          };
        """#
}
