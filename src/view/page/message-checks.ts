/**
 * Checks of the server's text messages before the page uses them (src/view/protocol.ts): a message whose fields are
 * missing or of the wrong type is ignored, never half-applied.
 */
import type { HelloMessage } from '../protocol.js';

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

const SMOOTHING_METHODS = ['snap', 'linear', 'projective', 'convergence'];

/** A hello whose fields the page reads are all there (a malformed one is ignored, not half-applied). */
export function isHello(message: HelloMessage): boolean {
  const c = message.config as Partial<HelloMessage['config']> | undefined;
  return (
    isFiniteNumber(message.serverTimeMs) &&
    typeof c === 'object' &&
    c !== null &&
    typeof c.smoothing === 'object' &&
    c.smoothing !== null &&
    SMOOTHING_METHODS.includes(c.smoothing.method) &&
    isFiniteNumber(c.smoothing.timeSeconds) &&
    c.smoothing.timeSeconds >= 0 &&
    isFiniteNumber(c.positionThresholdMeters) &&
    isFiniteNumber(c.orientationThresholdDeg) &&
    (c.exercise === null || isFiniteNumber(c.exercise)) &&
    (c.maxEntities === undefined || isFiniteNumber(c.maxEntities)) &&
    (c.tiles === null || typeof c.tiles === 'string')
  );
}
