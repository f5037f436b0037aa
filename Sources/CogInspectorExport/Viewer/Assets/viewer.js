(async function () {
  'use strict';
  // A large page carries its data as gzip in base64, which the browser inflates itself.
  async function inflate(base64) {
    const binary = atob(base64), bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  }
  const holder = document.getElementById('cog-data');
  const data = JSON.parse(holder.dataset.encoding === 'base64' ? await inflate(holder.textContent) : holder.textContent);
  document.body.dataset.dataMs = performance.now().toFixed(1);
  const SVG = 'http://www.w3.org/2000/svg';
  // Focus mode: only the selected state's neighbourhood, `depth` edges deep, and what the turn touched.
  let focus = data.focus ? { depth: data.focus.depth } : null;
  const style = data.style;
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
  function Recording(set) {
    this.set = set;
    this.turns = set.turns;
    this.nodes = set.nodes.map(n => ({ label: n[0], kind: n[1], declaration: n[2], key: n[3], x: n[4], y: n[5], x0: n[4], y0: n[5], w: n[6], h: n[7], restingStep: n[8] }));
    // A keyed family of many states is one node until it is unfolded.
    this.families = (set.families || []).map(([declaration, members, x, y, w, h, kind], index) =>
      ({ index, declaration, members, kind, label: declaration + '[*]', x0: x, y0: y, x, y, w, h, unfolded: false, grid: null }));
    this.familyOf = new Int32Array(this.nodes.length).fill(-1);
    this.families.forEach(f => f.members.forEach(slot => { this.familyOf[slot] = f.index; }));
    this.familyOfDeclaration = new Map(this.families.map(f => [f.declaration, f]));
    this.groups = new Map();
    this.nodes.forEach((n, slot) => { if (n.key !== null && n.declaration) { if (!this.groups.has(n.declaration)) this.groups.set(n.declaration, []); this.groups.get(n.declaration).push(slot); } });
    this.placement = 0;
    this.place();
    this.decisions = this.nodes.map(() => []);
    this.turns.forEach((t, pos) => (t.d || []).forEach(d => this.decisions[d[0]].push({ pos, step: d[1] })));
    this.positionOfTurn = new Map(this.turns.map((t, pos) => [t.t, pos]));
    this.slotOfLabel = new Map(this.nodes.map((n, slot) => [n.label, slot]));
    this.steps = set.steps || [];
  }
  // The graph after the turn at `pos`: the last keyframe at or before it, then each turn's changes.
  Recording.prototype.pictureAt = function (pos) {
    const keyframes = this.set.keyframes;
    let low = 0, high = keyframes.length - 1;
    while (low < high) { const mid = (low + high + 1) >> 1; if (keyframes[mid].at <= pos) low = mid; else high = mid - 1; }
    const keyframe = keyframes[low];
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
  // What draws `slot`: the slot itself, or -(f + 1) for the folded family f it belongs to.
  Recording.prototype.unitOf = function (slot) {
    const f = this.familyOf[slot];
    return f >= 0 && !this.families[f].unfolded ? -(f + 1) : slot;
  };
  Recording.prototype.box = function (unit) { return unit >= 0 ? this.nodes[unit] : this.families[-unit - 1]; };
  // Where everything sits with the unfolded families' states in grids: each grid goes under its
  // family's row (after any grid already there) and every row below moves down by its height,
  // so unfolding lays out only the family and never moves a node sideways.
  Recording.prototype.place = function () {
    const nodes = this.nodes, GAP = 12, HEADER = 28;
    const opened = this.families.filter(f => f.unfolded).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
    const grown = [];
    const shift = y0 => grown.reduce((sum, [row, extra]) => sum + (row < y0 ? extra : 0), 0);
    for (const f of opened) {
      const cellW = Math.max(...f.members.map(s => nodes[s].w)) + GAP, cellH = Math.max(...f.members.map(s => nodes[s].h)) + GAP;
      const columns = Math.max(1, Math.ceil(Math.sqrt(f.members.length * cellH / cellW)));
      const rows = Math.ceil(f.members.length / columns);
      const sameRow = grown.reduce((sum, [row, extra]) => sum + (row === f.y0 ? extra : 0), 0);
      const top = f.y0 + shift(f.y0) + f.h / 2 + HEADER + sameRow, left = f.x0 - columns * cellW / 2;
      f.members.forEach((slot, i) => {
        nodes[slot].x = left + (i % columns) * cellW + cellW / 2;
        nodes[slot].y = top + Math.floor(i / columns) * cellH + cellH / 2;
      });
      f.grid = { left: left - 6, top: top - 20, right: left + columns * cellW + 6, bottom: top + rows * cellH + 4 };
      grown.push([f.y0, rows * cellH + HEADER + 8]);
    }
    for (const f of this.families) {
      f.x = f.x0; f.y = f.y0 + shift(f.y0);
      if (!f.unfolded) { f.grid = null; f.members.forEach(slot => { nodes[slot].x = f.x; nodes[slot].y = f.y; }); }
    }
    nodes.forEach((n, slot) => { if (this.familyOf[slot] < 0) { n.x = n.x0; n.y = n.y0 + shift(n.y0); } });
    let left = 0, top = 0, right = this.set.width, bottom = this.set.height + grown.reduce((sum, [, extra]) => sum + extra, 0);
    for (const f of opened) { left = Math.min(left, f.grid.left); right = Math.max(right, f.grid.right); bottom = Math.max(bottom, f.grid.bottom); }
    this.bounds = { left, top, right, bottom };
    this.placement += 1;
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
    for (const [label, title, action] of [['+', 'zoom in (+)', () => this.zoomBy(1.25)], ['−', 'zoom out (-)', () => this.zoomBy(0.8)], ['fit', 'fit the graph to the pane (0)', () => this.fit()], ['focus', 'show only the selected state\'s neighbourhood and what the turn touched (f)', () => setFocus(focus ? null : 2)]]) {
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
    this.clusterLayer = svg('g');
    this.edgeLayer = svg('g'); this.nodeLayer = svg('g');
    this.graph.append(this.clusterLayer, this.edgeLayer, this.nodeLayer);
    this.onSelect = onSelect;
    this.drawn = new Array(recording.nodes.length);
    this.familyDrawn = new Array(recording.families.length);
    this.placed = -1;
    this.view = { x: 0, y: 0, scale: 1 };
    this.listen();
  }

  // The drawing of `slot`, made the first time it is shown: a folded family's states are
  // never drawn until it is unfolded, so a wide graph opens with a few elements.
  Pane.prototype.node = function (slot) {
    if (this.drawn[slot]) return this.drawn[slot];
    const n = this.recording.nodes[slot];
    const g = svg('g', { class: 'node', transform: `translate(${n.x},${n.y})`, 'data-label': n.label, 'data-kind': n.kind });
    const outline = shape(n.kind, n.w, n.h); outline.setAttribute('class', 'shape');
    g.appendChild(outline);
    if (n.kind === 'watch') g.appendChild(svg('path', { d: `M ${-n.w / 2 + 8} -4 v 8 M ${n.w / 2 - 8} -4 v 8`, stroke: '#374151' }));
    const label = svg('text', { y: -4, class: 'label' }); label.textContent = shorten(n.label, 48);
    const value = svg('text', { y: 12, class: 'value' });
    g.append(label, value);
    g.addEventListener('click', () => { if (!this.dragged) this.onSelect(this, slot); });
    this.nodeLayer.appendChild(g);
    return (this.drawn[slot] = { g, outline, value });
  };
  // The node of family `f`: a click unfolds it, or folds it again.
  Pane.prototype.family = function (f) {
    if (this.familyDrawn[f]) return this.familyDrawn[f];
    const family = this.recording.families[f];
    const g = svg('g', { class: 'node family', transform: `translate(${family.x},${family.y})`, 'data-label': family.label, 'data-family': family.declaration, 'data-kind': family.kind, role: 'button' });
    const outline = shape(family.kind, family.w, family.h); outline.setAttribute('class', 'shape');
    const stack = shape(family.kind, family.w, family.h); stack.setAttribute('class', 'shape stack'); stack.setAttribute('transform', 'translate(4,-4)');
    const label = svg('text', { y: -4, class: 'label' }); label.textContent = shorten(family.label, 48);
    const value = svg('text', { y: 12, class: 'value' });
    const title = svg('title'); title.textContent = 'click to unfold or fold ' + family.declaration;
    g.append(title, stack, outline, label, value);
    g.addEventListener('click', () => { if (!this.dragged) toggleFamily(family.declaration); });
    this.nodeLayer.appendChild(g);
    return (this.familyDrawn[f] = { g, outline, value });
  };
  // Moves every drawn node to where `place` put it, and draws the families' frames again.
  Pane.prototype.placeAll = function () {
    const recording = this.recording;
    this.drawn.forEach((d, slot) => { if (d) { const n = recording.nodes[slot]; d.g.setAttribute('transform', `translate(${n.x},${n.y})`); } });
    this.familyDrawn.forEach((d, f) => { if (d) { const family = recording.families[f]; d.g.setAttribute('transform', `translate(${family.x},${family.y})`); } });
    clear(this.clusterLayer);
    for (const [declaration, members] of recording.groups) {
      const family = recording.familyOfDeclaration.get(declaration);
      if (members.length < 2 || (family && !family.unfolded)) continue;
      const nodes = recording.nodes;
      const left = Math.min(...members.map(s => nodes[s].x - nodes[s].w / 2)) - 8;
      const right = Math.max(...members.map(s => nodes[s].x + nodes[s].w / 2)) + 8;
      const top = Math.min(...members.map(s => nodes[s].y - nodes[s].h / 2)) - 16;
      const bottom = Math.max(...members.map(s => nodes[s].y + nodes[s].h / 2)) + 8;
      this.clusterLayer.appendChild(svg('rect', { class: 'cluster', x: left, y: top, width: right - left, height: bottom - top, rx: 6 }));
      const label = svg('text', { class: 'cluster-label', x: left + 6, y: top + 11 }); label.textContent = declaration;
      this.clusterLayer.appendChild(label);
    }
    this.placed = recording.placement;
  };
  // In focus: the units within `depth` edges of the selected state, and those the turn
  // touched; null when the whole graph shows.
  Pane.prototype.focusSet = function (selected, t) {
    if (!focus || selected === null) return null;
    const recording = this.recording, neighbours = new Map();
    const link = (a, b) => { if (!neighbours.has(a)) neighbours.set(a, []); neighbours.get(a).push(b); };
    for (const key of this.picture.edges) {
      const comma = key.indexOf(','), a = recording.unitOf(+key.slice(0, comma)), b = recording.unitOf(+key.slice(comma + 1));
      if (a !== b) { link(a, b); link(b, a); }
    }
    const start = recording.unitOf(selected), kept = new Set([start]);
    let frontier = [start];
    for (let level = 0; level < focus.depth && frontier.length; level++) {
      const next = [];
      for (const unit of frontier) for (const other of neighbours.get(unit) || []) if (!kept.has(other)) { kept.add(other); next.push(other); }
      frontier = next;
    }
    (t.m || []).forEach(m => kept.add(recording.unitOf(m[0])));
    (t.a || []).forEach(slot => kept.add(recording.unitOf(slot)));
    return kept;
  };

  // Moves the pane to the turn at `pos` of its recording (none when outside it).
  Pane.prototype.at = function (pos) {
    const inside = pos >= 0 && pos < this.recording.turns.length;
    this.position = inside ? pos : null;
    this.picture = inside ? this.recording.pictureAt(pos) : { live: new Map(), edges: new Set() };
    const t = inside ? this.recording.turns[pos] : null;
    this.caption.textContent = this.recording.set.source + (t ? ` · turn ${t.t}` : ' · no turn here');
  };
  // Draws the picture of the turn `at` chose; `differs` holds the labels whose values or
  // reads differ in the other recording. A folded family draws as one node saying how many of
  // its states live and how many the turn marked; edges merge between the nodes drawn, and
  // past EDGE_LIMIT only the selected node's and the turn's show. Returns the units the turn
  // touched.
  const EDGE_LIMIT = 1500;
  Pane.prototype.render = function (selected, differs) {
    const recording = this.recording, picture = this.picture;
    if (this.placed !== recording.placement) this.placeAll();
    const t = this.position === null ? {} : recording.turns[this.position];
    const marks = new Map((t.m || []).map(m => [m[0], m]));
    const after = new Set(t.a || []);
    const visible = this.position === null ? null : this.focusSet(selected, t);
    this.visible = visible;
    const touched = new Set();
    const summaries = recording.families.map(() => ({ live: 0, marked: 0, flags: new Set() }));
    recording.nodes.forEach((node, slot) => {
      const state = picture.live.get(slot), mark = marks.get(slot);
      const flags = (mark ? mark[1] : []).concat(after.has(slot) ? ['after'] : []);
      const unit = recording.unitOf(slot);
      if (unit < 0) {
        const summary = summaries[-unit - 1];
        if (state) summary.live += 1;
        if (flags.length || (mark && mark[2].length)) { summary.marked += 1; flags.forEach(flag => summary.flags.add(flag)); }
        if (this.drawn[slot]) this.drawn[slot].g.style.display = 'none';
        return;
      }
      const shown = Boolean(state) && (!visible || visible.has(slot));
      if (!shown && !this.drawn[slot]) return;
      const d = this.node(slot);
      d.g.style.display = shown ? '' : 'none';
      const differing = differs && differs.has(node.label);
      d.g.setAttribute('class', ['node', ...flags, slot === selected ? 'selected' : '', differing ? 'differs' : ''].join(' ').replace(/ +/g, ' ').trim());
      d.g.setAttribute('data-marks', flags.join(' '));
      const fill = flags.map(f => style.fills[f]).find(Boolean);
      d.outline.style.fill = fill || '';
      if (!state) return;
      if (flags.length || (mark && mark[2].length) || differing) touched.add(slot);
      let text = state[1] === null ? '' : state[1];
      if (state[3]) text = (text ? text + ' · ' : '') + state[3];
      if (mark && mark[2].length) text += ' ' + mark[2].join(' ');
      d.value.textContent = shorten(text, Math.max(8, Math.floor(node.w / 6.5)));
    });
    recording.families.forEach((family, f) => {
      const summary = summaries[f], unit = -(f + 1);
      const live = family.unfolded ? family.members.filter(slot => picture.live.has(slot)).length : summary.live;
      const shown = live > 0 && (!visible || (family.unfolded ? family.members.some(slot => visible.has(slot)) : visible.has(unit)));
      if (!shown && !this.familyDrawn[f]) return;
      const d = this.family(f), flags = [...summary.flags];
      d.g.style.display = shown ? '' : 'none';
      d.g.setAttribute('class', ['node', 'family', family.unfolded ? 'unfolded' : '', ...flags].join(' ').replace(/ +/g, ' ').trim());
      d.g.setAttribute('data-marks', flags.join(' '));
      d.g.setAttribute('data-members', String(live));
      d.outline.style.fill = flags.map(flag => style.fills[flag]).find(Boolean) || '';
      d.value.textContent = `${live} ${live === 1 ? 'key' : 'keys'}` + (family.unfolded ? ' · click to fold' : summary.marked ? ` · ${summary.marked} marked` : '');
      if (summary.marked && shown) touched.add(unit);
    });
    clear(this.edgeLayer);
    const changes = new Map((t.me || []).map(e => [e[0] + ',' + e[1], e[2]]));
    const standing = new Set(picture.edges);
    for (const [key, change] of changes) if (change === 'removed') standing.add(key);
    const merged = new Map();
    for (const key of standing) {
      const comma = key.indexOf(','), a = recording.unitOf(+key.slice(0, comma)), b = recording.unitOf(+key.slice(comma + 1));
      if (a === b && a < 0) continue;
      if (visible && !(visible.has(a) && visible.has(b))) continue;
      const id = a + ',' + b;
      let edge = merged.get(id);
      if (!edge) merged.set(id, (edge = { a, b, count: 0, change: null }));
      edge.count += 1;
      if (changes.has(key) && edge.change !== 'added') edge.change = changes.get(key);
    }
    const focusUnit = selected === null ? null : recording.unitOf(selected);
    let edges = [...merged.values()];
    const hidden = edges.length > EDGE_LIMIT ? edges.length : 0;
    if (hidden) edges = edges.filter(e => e.change || e.a === focusUnit || e.b === focusUnit);
    for (const edge of edges) {
      const from = recording.box(edge.a), to = recording.box(edge.b);
      const down = to.y >= from.y;
      const line = svg('path', { class: 'edge' + (edge.change ? ' ' + edge.change : ''),
        d: `M ${from.x} ${from.y + (down ? from.h / 2 : -from.h / 2)} L ${to.x} ${to.y + (down ? -to.h / 2 : to.h / 2)}`,
        'marker-end': `url(#arrow-${this.name})`, 'data-from': from.label, 'data-to': to.label, 'data-count': edge.count });
      if (edge.count > 1) line.style.strokeWidth = Math.min(6, 1 + Math.log2(edge.count)).toFixed(1);
      if (edge.change) {
        line.style.stroke = edge.change === 'added' ? style.added : style.removed;
        for (const unit of [edge.a, edge.b]) touched.add(unit);
      }
      this.edgeLayer.appendChild(line);
    }
    this.graph.dataset.edgesHidden = hidden ? String(hidden - edges.length) : '0';
    if (hidden) this.caption.textContent += ` · ${hidden - edges.length} of ${hidden} edges hidden; select a state to see its edges`;
    if (visible) this.caption.textContent += ` · focus: ${recording.nodes[selected].label}, depth ${focus.depth} ([ ] change it, f leaves)`;
    else if (focus) this.caption.textContent += ' · focus: select a state to see its neighbourhood';
    return [...touched];
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
    const { width, height } = this.size(), bounds = this.recording.bounds;
    const w = bounds.right - bounds.left + 20, h = bounds.bottom - bounds.top + 20;
    const scale = Math.min(2, width / w, height / h);
    this.view = { x: bounds.left - 10 - (width / scale - w) / 2, y: bounds.top - 10 - (height / scale - h) / 2, scale };
    this.apply();
  };
  // Brings the nodes drawn as `units` into view: nothing moves when they all are in sight;
  // otherwise the view centres on them, zooming out only when they do not fit.
  Pane.prototype.reveal = function (units) {
    if (!units.length) return;
    const boxes = units.map(unit => this.recording.box(unit)), margin = 16;
    const left = Math.min(...boxes.map(b => b.x - b.w / 2)) - margin;
    const right = Math.max(...boxes.map(b => b.x + b.w / 2)) + margin;
    const top = Math.min(...boxes.map(b => b.y - b.h / 2)) - margin;
    const bottom = Math.max(...boxes.map(b => b.y + b.h / 2)) + margin;
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
  };  // Why: the engine's graph of causes (steps), each step with its line, detail and causes;
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
  }  const main = new Recording(data), other = data.other ? new Recording(data.other) : null;
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
    if (selection && revealSelection) { selection.pane.reveal([selection.pane.recording.unitOf(selection.slot)]); revealSelection = false; }
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
    const unfolded = main.families.filter(f => f.unfolded).map(f => encodeURIComponent(f.declaration)).join(',');
    history.replaceState(null, '', '#turn=' + t.t + state + (unfolded ? '&unfold=' + unfolded : '') + (focus ? '&focus=' + focus.depth : ''));
  }
  function go(pos) { const moved = pos !== current || !document.body.dataset.ready; current = Math.max(0, Math.min(turns.length - 1, pos)); render(moved); }
  // Selecting a state of a folded family (from the change list, the search or a why link)
  // unfolds the family first.
  function selectState(pane, slot) {
    const f = pane.recording.familyOf[slot];
    if (f >= 0 && !pane.recording.families[f].unfolded) setFolding([pane.recording.families[f].declaration], true);
    selection = { pane, slot }; revealSelection = true; render(false);
  }
  // Unfolds (or folds) the families of `declarations` in every pane, and lays out again only
  // what moves.
  function setFolding(declarations, unfolded) {
    for (const pane of panes) {
      let changed = false;
      for (const declaration of declarations) {
        const family = pane.recording.familyOfDeclaration.get(declaration);
        if (family && family.unfolded !== unfolded) { family.unfolded = unfolded; changed = true; }
      }
      if (changed) pane.recording.place();
    }
  }
  function toggleFamily(declaration) {
    const family = main.familyOfDeclaration.get(declaration) || (other && other.familyOfDeclaration.get(declaration));
    if (!family) return;
    const started = performance.now();
    setFolding([declaration], !family.unfolded);
    if (selection && selection.pane.recording.familyOf[selection.slot] === family.index && !family.unfolded) selection = null;
    render(false);
    panes.forEach(pane => { const f = pane.recording.familyOfDeclaration.get(declaration); if (f) pane.reveal(f.unfolded ? f.members.map(s => pane.recording.unitOf(s)).slice(0, 1).concat([-(f.index + 1)]) : [-(f.index + 1)]); });
    document.body.dataset.unfoldMs = (performance.now() - started).toFixed(1);
  }
  function setFocus(depth) {
    focus = depth === null ? null : { depth: Math.max(0, Math.min(99, depth)) };
    render(false);
    if (focus) panes.forEach(pane => { if (pane.visible) pane.reveal([...pane.visible]); });
  }

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
      // A row is one line high (the list is virtual); a name cut by the edge shows whole on hover.
      const li = element('li', { 'data-turn': t.t, 'data-pos': pos, title: `turn ${t.t}: ${t.n} (${t.o})` }, t.t + '  ' + t.n + ' ');
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
    else if (event.key === 'f') { event.preventDefault(); setFocus(focus ? null : 2); }
    else if ((event.key === '[' || event.key === ']') && focus) { event.preventDefault(); setFocus(focus.depth + (event.key === ']' ? 1 : -1)); }
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
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has('unfold')) {
    const asked = hash.get('unfold').split(',').filter(Boolean);
    setFolding(asked.includes('all') ? main.families.map(f => f.declaration) : asked, true);
  }
  if (hash.has('focus')) { const depth = Number(hash.get('focus')); focus = { depth: Number.isInteger(depth) ? Math.max(0, Math.min(99, depth)) : 2 }; }
  panes.forEach(pane => {
    const { width, height } = pane.size(), bounds = pane.recording.bounds;
    if (bounds.right - bounds.left + 20 <= width && bounds.bottom - bounds.top + 20 <= height) pane.fit();
    else { pane.view = { x: bounds.left - 10, y: bounds.top - 10, scale: 1 }; pane.apply(); }
  });
  const start = main.positionOfTurn.get(Number(hash.get('turn')));
  const chosenPane = hash.get('pane') === 'other' && other ? panes[1] : panes[0];
  if (!hash.has('state') && data.focus && main.slotOfLabel.has(data.focus.state)) hash.set('state', data.focus.state);
  if (hash.has('state') && chosenPane.recording.slotOfLabel.has(hash.get('state'))) {
    selection = { pane: chosenPane, slot: chosenPane.recording.slotOfLabel.get(hash.get('state')) };
    const f = chosenPane.recording.familyOf[selection.slot];
    if (f >= 0) setFolding([chosenPane.recording.families[f].declaration], true);
    revealSelection = true;
  }
  const opening = divergencePosition !== null ? divergencePosition : main.positionOfTurn.get(data.opening);
  go(start !== undefined ? start : opening !== undefined ? opening : turns.length - 1);
  document.body.dataset.firstRenderMs = performance.now().toFixed(1);
  requestAnimationFrame(() => setTimeout(() => { document.body.dataset.firstPaintMs = performance.now().toFixed(1); }));
  document.body.dataset.ready = 'true';
})();
