// What test/view/page-gpu-dr.test.ts asks of its page (test/view/browser/gpu-dr-page.ts) and gets back: plain data,
// shared by the Node side and the page.

/** One entity: its first PDU's fields, and what happens to it after. */
export interface CaseEntity {
  name: string;
  algorithm: number;
  latDeg: number;
  lonDeg: number;
  altM: number;
  /** Velocity and acceleration East, North, Up (world models) or body x, y, z (body models). */
  velocity: [number, number, number];
  acceleration: [number, number, number];
  /** ψ, θ, φ, radians; ω about body axes, rad/s. */
  orientation: [number, number, number];
  angularVelocity: [number, number, number];
  /** Frozen by its appearance (bit 21). */
  frozen?: boolean;
  /** A second PDU `correctAfterSeconds` later, `correctionMeters` north of where the first one's model has it then. */
  correctionMeters?: number;
  correctAfterSeconds?: number;
  /** Held by a Stop/Freeze this many seconds after the first PDU. */
  holdAfterSeconds?: number;
}

/** An entity's differences GPU − table over the times asked. */
export interface CaseResult {
  name: string;
  /** Horizontal distance, metres, at each time from the entity's last PDU on. */
  errorsMeters: number[];
  /** Heading, degrees, at the same times. */
  headingErrorsDeg: number[];
  /** The GPU's longitude and latitude at every time asked (stillness is checked on these). */
  gpuLonLat: Array<[number, number]>;
}

export type SmoothingName = 'linear' | 'projective' | 'convergence';
