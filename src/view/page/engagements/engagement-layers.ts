/**
 * deck.gl layers of `PageEngagements` (src/view/page/engagements/engagements.ts): shots as lines from shooter to target
 * (wider for the selected entity's), detonations as bursts coloured by result that grow as they fade, collisions
 * as rings. A few hundred items at most: plain data arrays and accessors.
 */
import type { Layer } from '@deck.gl/core';
import { LineLayer, ScatterplotLayer } from '@deck.gl/layers';
import { FADE_SECONDS, resultColour, type EngagementPicture } from './engagements.js';

// Yellow, apart from the orange of the PDU arrival dots it is drawn over.
const SHOT: [number, number, number] = [255, 238, 70];
const SELECTED_SHOT: [number, number, number] = [255, 255, 255];
const COLLISION: [number, number, number] = [120, 230, 255];

export function engagementLayers(picture: EngagementPicture): Layer[] {
  if (picture.shots.length === 0 && picture.bursts.length === 0 && picture.collisions.length === 0) return [];
  return [
    new LineLayer<number[]>({
      id: 'shots',
      data: picture.shots,
      getSourcePosition: (d) => [d[0]!, d[1]!],
      getTargetPosition: (d) => [d[2]!, d[3]!],
      getColor: (d) =>
        [...(d[5] === 1 ? SELECTED_SHOT : SHOT), Math.round(230 * d[4]!)] as [number, number, number, number],
      getWidth: (d) => (d[5] === 1 ? 4 : 2.5),
      widthUnits: 'pixels',
      updateTriggers: { getColor: [picture.shots], getWidth: [picture.shots] },
    }),
    new ScatterplotLayer<number[]>({
      id: 'bursts',
      data: picture.bursts,
      getPosition: (d) => [d[0]!, d[1]!],
      // A burst grows from 6 to 24 px as it fades.
      getRadius: (d) => 6 + 18 * (1 - d[2]!),
      radiusUnits: 'pixels',
      getFillColor: (d) => {
        const c = resultColour(d[3]!);
        return [c[0], c[1], c[2], Math.round(200 * d[2]!)];
      },
      stroked: true,
      getLineColor: (d) => [255, 255, 255, Math.round(220 * d[2]!)],
      lineWidthUnits: 'pixels',
      getLineWidth: 1.5,
      updateTriggers: { getRadius: [picture.bursts], getFillColor: [picture.bursts], getLineColor: [picture.bursts] },
    }),
    new ScatterplotLayer<number[]>({
      id: 'collisions',
      data: picture.collisions,
      getPosition: (d) => [d[0]!, d[1]!],
      getRadius: 10,
      radiusUnits: 'pixels',
      filled: false,
      stroked: true,
      getLineColor: (d) => [...COLLISION, Math.round(255 * d[2]!)] as [number, number, number, number],
      lineWidthUnits: 'pixels',
      getLineWidth: 3,
      updateTriggers: { getLineColor: [picture.collisions] },
    }),
  ];
}

/** For the legend: what each burst colour means. */
export const BURST_LEGEND: ReadonlyArray<[string, number]> = [
  ['hit', 1],
  ['ground impact', 3],
  ['detonation', 5],
  ['dud', 6],
  ['other', 0],
];

export { FADE_SECONDS };
