/// The viewer page's style sheet and script. The script reads the embedded data, rebuilds the
/// graph at a turn from the keyframe before it, and draws it as SVG; every recorded string
/// reaches the page through `textContent` or an attribute, never as markup.
enum ViewerScript {
    static let styles = #"""
        * { box-sizing: border-box; }
        body { margin: 0; font: 13px/1.35 system-ui, sans-serif; color: #111827; display: grid; height: 100vh;
          grid-template: "head head head" auto "turns graph side" 1fr / 280px 1fr 380px; }
        header { grid-area: head; padding: 8px 12px; border-bottom: 1px solid #d1d5db; display: flex; gap: 12px;
          align-items: center; position: relative; }
        #window-note { color: #92400e; }
        #search { margin-left: auto; width: 280px; padding: 4px 6px; }
        #matches { position: absolute; right: 12px; top: 36px; width: 420px; max-height: 60vh; overflow: auto; z-index: 2;
          background: #fff; border: 1px solid #9ca3af; list-style: none; margin: 0; padding: 4px; }
        #matches li { padding: 2px 4px; cursor: pointer; } #matches li:hover { background: #eef2ff; }
        nav { grid-area: turns; display: flex; flex-direction: column; border-right: 1px solid #d1d5db; min-height: 0; }
        #scrubber { margin: 8px 8px 0; }
        #scrubber-marks { position: relative; height: 12px; margin: 0 14px 6px; }
        #scrubber-marks .tick { position: absolute; top: 0; width: 3px; height: 12px; margin-left: -1px; cursor: pointer; border: 0; padding: 0; }
        #scrubber-marks .tick.failure { background: #dc2626; } #scrubber-marks .tick.divergence { background: #7c3aed; }
        #turns { overflow: auto; flex: 1; position: relative; }
        #turn-rows { list-style: none; margin: 0; padding: 0; position: absolute; left: 0; right: 0; top: 0; }
        #turns li { height: 20px; padding: 2px 8px; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        #turns li.current { background: #dbeafe; font-weight: 600; }
        #turns li .origin { color: #6b7280; } #turns li .failure { color: #dc2626; font-weight: 700; }
        #turns li .divergence { color: #7c3aed; font-weight: 700; }
        main { grid-area: graph; display: flex; min-width: 0; min-height: 0; background: #fafafa; }
        .pane { flex: 1; position: relative; overflow: hidden; min-width: 0; touch-action: none; cursor: grab; }
        .pane + .pane { border-left: 2px solid #d1d5db; }
        .pane svg.graph { width: 100%; height: 100%; display: block; }
        .caption { position: absolute; left: 8px; right: 120px; top: 6px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; color: #374151; background: #fafafae0; padding: 0 4px; pointer-events: none; }
        .tools { position: absolute; right: 8px; top: 6px; display: flex; gap: 4px; }
        .tool { min-width: 28px; padding: 2px 6px; border: 1px solid #9ca3af; background: #fff; border-radius: 4px; cursor: pointer; }
        aside { grid-area: side; overflow: auto; border-left: 1px solid #d1d5db; padding: 8px 12px; }
        .node { cursor: pointer; } .node .shape { fill: #fff; stroke: #374151; stroke-width: 1.2; }
        .node.selected .shape { stroke: #2563eb; stroke-width: 3; }
        .node.after .shape { stroke: #d97706; stroke-width: 2.5; stroke-dasharray: 2 2; }
        .node.differs .shape { stroke: #7c3aed; stroke-width: 3.5; }
        .node text { font-size: 11px; text-anchor: middle; pointer-events: none; }
        .node .value { fill: #374151; } .node.notified .shape { stroke-dasharray: 4 2; }
        .cluster { fill: none; stroke: #9ca3af; stroke-dasharray: 5 3; } .cluster-label { font-size: 10px; fill: #6b7280; }
        .edge { stroke: #6b7280; stroke-width: 1.2; fill: none; }
        .edge.added { stroke-width: 2.5; } .edge.removed { stroke-dasharray: 6 4; stroke-width: 2; }
        h2 { font-size: 14px; margin: 10px 0 4px; } h3 { font-size: 12px; margin: 10px 0 2px; color: #374151; }
        h4 { font-size: 12px; margin: 6px 0 2px; color: #4b5563; } h4.after { color: #b45309; } h4.failure { color: #dc2626; }
        .failure-entry { border-left: 3px solid #dc2626; padding-left: 6px; margin: 6px 0; }
        .failure-test { font-weight: 600; } .failure-location { color: #6b7280; font-family: ui-monospace, monospace; }
        ul.fields { color: #4b5563; font-family: ui-monospace, monospace; font-size: 12px; }
        .hint { color: #6b7280; } ul.plain { margin: 2px 0; padding-left: 16px; }
        span.link { color: #1d4ed8; cursor: pointer; } span.link:hover { text-decoration: underline; }
        button.link { border: 0; background: none; color: #1d4ed8; cursor: pointer; padding: 0; font: inherit; text-decoration: underline; text-align: left; }
        details { margin-left: 12px; } summary { cursor: pointer; color: #374151; } .leaf { margin-left: 12px; }
        .legend-row { display: flex; align-items: center; gap: 6px; margin: 2px 0; }
        """#

    /// The whole script: helpers, then the recording and pane, the panels, and the page's wiring.
    static var source: String { prelude + pane + panels + wiring }

    private static let prelude = #"""
        (function () {
          'use strict';
          const data = JSON.parse(document.getElementById('cog-data').textContent);
          const SVG = 'http://www.w3.org/2000/svg';
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

        """#
}
