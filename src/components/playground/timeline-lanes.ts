/**
 * The drawing both run timelines share (wall-clock collectives and virtual time): the SVG, one
 * labelled lane per rank, described bars, axis labels, the legend and the "only the first N" note.
 */
import { svgEl } from './svg-element.ts';

/** Width of the SVG's viewBox; the page scales it to the column. */
export const TIMELINE_WIDTH = 640;
/** Left margin where the rank labels sit. */
export const TIMELINE_LEFT = 56;
/** Bars a keyboard reader can tab through; a training run's hundreds would be a tab trap. */
const MAX_FOCUSABLE = 100;

/** Replaces the container's content by a sentence saying why there is nothing to draw. */
export function showEmptyTimeline(container: HTMLElement, text: string): void {
  const p = document.createElement('p');
  p.className = 'pg-timeline-empty';
  p.textContent = text;
  container.replaceChildren(p);
}

/** Whether bars get a tab stop: only on traces small enough to walk through. */
export const barsFocusable = (count: number): boolean => count <= MAX_FOCUSABLE;

export interface LaneGeometry {
  /** Height of one rank's row. */
  row: number;
  /** Offset of a row's top from the SVG's top. */
  top: number;
  /** Baseline of the rank label, from the row's top. */
  labelY: number;
  /** The lane line, from the row's top. */
  lineY: number;
}

/** An SVG with one labelled lane line per rank; the caller adds the bars. */
export function laneSvg(
  worldSize: number,
  height: number,
  lanes: LaneGeometry,
  className: string,
  ariaLabel: string,
): SVGSVGElement {
  const svg = svgEl('svg', {
    viewBox: `0 0 ${TIMELINE_WIDTH} ${height}`,
    role: 'img',
    class: className,
  });
  svg.setAttribute('aria-label', ariaLabel);
  for (let r = 0; r < worldSize; r++) {
    const y = r * lanes.row + lanes.top;
    const label = svgEl('text', { x: 4, y: y + lanes.labelY, class: 'pg-lane-label' });
    label.textContent = `rank ${r}`;
    const lineY = y + lanes.lineY;
    svg.append(
      svgEl('line', {
        x1: TIMELINE_LEFT,
        x2: TIMELINE_WIDTH - 8,
        y1: lineY,
        y2: lineY,
        class: 'pg-lane',
      }),
      label,
    );
  }
  return svg;
}

/** A bar whose description is both its accessible name and its hover title. */
export function describedBar(
  attrs: Record<string, string | number>,
  description: string,
  focusable: boolean,
): SVGRectElement {
  const bar = svgEl('rect', { ...attrs, ...(focusable ? { tabindex: 0 } : {}) });
  bar.setAttribute('aria-label', description);
  const title = svgEl('title', {});
  title.textContent = description;
  bar.append(title);
  return bar;
}

/** A small time label on the axis line at the SVG's bottom. */
export function axisText(x: number, y: number, text: string, anchorEnd: boolean): SVGTextElement {
  const node = svgEl('text', {
    x,
    y,
    ...(anchorEnd ? { 'text-anchor': 'end' } : {}),
    class: 'pg-lane-label',
  });
  node.textContent = text;
  return node;
}

export interface LegendItem {
  className: string;
  text: string;
  /** A colour for the swatch, set as the --kind custom property. */
  color?: string;
}

/** Shows the SVG with its legend, led by a note when only part of the run was drawn. */
export function showTimeline(
  container: HTMLElement,
  svg: SVGSVGElement,
  items: readonly LegendItem[],
  truncationNote?: string,
): void {
  const legend = document.createElement('p');
  legend.className = 'pg-legend';
  for (const { className, text, color } of items) {
    const item = document.createElement('span');
    item.className = className;
    if (color) item.style.setProperty('--kind', color);
    item.textContent = text;
    legend.append(item);
  }
  container.replaceChildren(svg, legend);
  if (truncationNote) {
    const note = document.createElement('p');
    note.className = 'pg-timeline-note';
    note.setAttribute('role', 'note');
    note.textContent = truncationNote;
    container.prepend(note);
  }
}
