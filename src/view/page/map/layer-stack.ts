/**
 * The order the map's layers are drawn in, bottom first: what fades into the background (trails, PDU arrival dots)
 * under the shots, the symbols over the shot lines, the bursts over the symbols they hit, the labels over everything.
 * Drawn in that order whatever their height: deck.gl's depth test would otherwise put a dot of an aircraft at
 * 700 m over a shot line on the ground, and a trail over a label.
 */
import type { Layer } from '@deck.gl/core';

const ORDER = [
  'trails',
  'pdu-markers',
  'ghosts',
  'truth-error',
  'truth',
  'shots',
  'entities',
  'bursts',
  'collisions',
  'selection',
  'labels',
];

/** Deck parameters that draw each layer over the ones before it (no depth test, as on a flat, top-down map). */
export const DRAW_IN_ORDER = { depthCompare: 'always', depthWriteEnabled: false } as const;

const rank = (layer: Layer) => {
  const at = ORDER.indexOf(layer.id);
  return at < 0 ? ORDER.length : at;
};

/** The layers in drawing order (a layer this list does not name goes on top, in the order given). */
export function stackLayers(layers: readonly Layer[]): Layer[] {
  return [...layers].sort((a, b) => rank(a) - rank(b));
}
