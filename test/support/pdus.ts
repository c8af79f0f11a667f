// PDU-shaped bytes for transport tests: a 12-byte DIS header plus a body that opens with an entity id. The
// transport only reads the header and the id, so the rest of the body is a recognisable fill pattern.

export interface PduSpec {
  readonly version?: number;
  readonly exercise?: number;
  readonly pduType?: number;
  /** Bytes in the PDU. Defaults to 144 (an Entity State PDU without variable parameters). */
  readonly length?: number;
  /** Value written in the Length field. Defaults to `length`. */
  readonly lengthField?: number;
  readonly site?: number;
  readonly application?: number;
  readonly entity?: number;
}

export function makePdu(spec: PduSpec = {}): Buffer {
  const length = spec.length ?? 144;
  const bytes = Buffer.alloc(length);
  for (let i = 12; i < length; i++) bytes[i] = (i * 7 + (spec.entity ?? 0)) & 0xff;
  bytes[0] = spec.version ?? 7;
  bytes[1] = spec.exercise ?? 1;
  bytes[2] = spec.pduType ?? 1;
  bytes[3] = 1;
  if (length >= 10) bytes.writeUInt16BE(spec.lengthField ?? length, 8);
  if (length >= 18) {
    bytes.writeUInt16BE(spec.site ?? 1, 12);
    bytes.writeUInt16BE(spec.application ?? 3001, 14);
    bytes.writeUInt16BE(spec.entity ?? 1, 16);
  }
  return bytes;
}

/** Entity number of a PDU built by `makePdu`. */
export function entityOf(bytes: Uint8Array, offset: number): number {
  return (bytes[offset + 16]! << 8) | bytes[offset + 17]!;
}
