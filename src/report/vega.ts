/**
 * Vega-Lite → SVG on the server: the reports carry finished SVG and need no script or network. Marks with a
 * `tooltip` encoding get an SVG `<title>` (the browser's native tooltip); Vega writes the tooltip text into the
 * mark's `aria-label`, already escaped for an attribute, and the same text is valid element content.
 */

/** Shared look of every chart. */
const CONFIG = {
  font: 'system-ui, sans-serif',
  axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', gridColor: '#e8e8e8', tickCount: 6 },
  legend: { labelLimit: 300, labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', symbolLimit: 0 },
  header: { labelFontSize: 12, titleFontSize: 12 },
  title: { fontSize: 13, fontWeight: 'normal', anchor: 'start' },
  view: { stroke: '#ccc' },
};

/** Renders a Vega-Lite spec to SVG markup (server-side, no canvas). */
export async function renderVegaLite(spec: Record<string, unknown>): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const full = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    background: 'white',
    ...spec,
    config: { ...CONFIG, ...(spec.config as object | undefined) },
  };
  const compiled = vegaLite.compile(full as Parameters<typeof vegaLite.compile>[0]).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return withTitles(roundCoordinates(await view.toSVG()));
  } finally {
    view.finalize();
  }
}

/**
 * Rounds the coordinates in geometry attributes (`d`, `transform`, `x`, `y`, …) to 0.01 px: Vega writes up to 16
 * digits, which more than doubles the size of a chart with many marks and changes nothing on screen.
 */
export function roundCoordinates(svg: string): string {
  return svg.replace(/ (d|transform|x|y|x1|y1|x2|y2|width|height)="([^"]*)"/g, (_, name: string, value: string) => {
    return ` ${name}="${value.replace(/(\d+\.\d\d)\d+/g, '$1')}"`;
  });
}

/**
 * Gives every self-closed mark element with an `aria-label` a `<title>` child holding that text instead. The label
 * is attribute-escaped by Vega (`&`, `<`, `"`), so it cannot close the element or open another.
 */
export function withTitles(svg: string): string {
  // The title is the element's accessible name as well, so the aria-label goes (it would double the bytes).
  return svg.replace(
    /<(path|rect|text|line) aria-label="([^"]*)"([^>]*?)\/>/g,
    (_, tag: string, label: string, attributes: string) => {
      return `<${tag}${attributes}><title>${label}</title></${tag}>`;
    },
  );
}
