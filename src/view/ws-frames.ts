/** WebSocket binary frames written by the gateway itself, so that a tick is framed once for every client. */

/** A tick's feed messages as WebSocket frames, and how many messages and payload bytes they hold. */
export interface TickFrames {
  readonly frames: Buffer;
  readonly messages: number;
  readonly bytes: number;
}

/**
 * `messages` as server-to-client WebSocket binary frames, back to back in one buffer (RFC 6455 §5.2: FIN set,
 * opcode 2, no mask, payload length in 7 bits, or 126 and 16 bits, or 127 and 64 bits).
 */
export function binaryFrames(messages: readonly Uint8Array[]): Buffer {
  return feedFrames(messages);
}

/**
 * `messages` as server-to-client WebSocket frames, back to back in one buffer: binary frames, and text frames
 * (opcode 1; the message is UTF-8) where `text[i]` is 1.
 */
export function feedFrames(messages: readonly Uint8Array[], text?: Uint8Array): Buffer {
  let total = 0;
  for (const m of messages) total += (m.length < 126 ? 2 : m.length < 65_536 ? 4 : 10) + m.length;
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const n = m.length;
    out[at] = text !== undefined && text[i] === 1 ? 0x81 : 0x82;
    if (n < 126) {
      out[at + 1] = n;
      at += 2;
    } else if (n < 65_536) {
      out[at + 1] = 126;
      out.writeUInt16BE(n, at + 2);
      at += 4;
    } else {
      out[at + 1] = 127;
      out.writeUInt32BE(Math.floor(n / 0x1_0000_0000), at + 2);
      out.writeUInt32BE(n >>> 0, at + 6);
      at += 10;
    }
    out.set(m, at);
    at += n;
  }
  return out;
}
