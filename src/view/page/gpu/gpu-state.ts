/**
 * The entities' state on the GPU, as a game engine keeps its particles: every slot's record
 * (src/view/page/gpu/gpu-record.ts) in one integer texture, written only where a PDU (or a freeze, a removal)
 * changed it. The layers' vertex shaders read it and dead-reckon each entity they draw (`drEntity`, dr-glsl.ts;
 * src/view/page/gpu/entity-symbol-layer.ts).
 *
 * - Changed records are packed by the page into `GpuStaging` and uploaded as one small texture per frame, then
 *   scattered into the state texture by drawing one point per texel: one upload and one draw whatever slots changed,
 *   where a buffer update per changed slot would cost a call each (10 000 a frame at a million entities).
 * - `extrapolate` runs the same `drEntity` over slots with transform feedback into a buffer (32 bytes a slot:
 *   longitude and latitude as float pairs, heading, icon, force) that can be read back: what the layers draw, as
 *   numbers (test/view/page-gpu-dr.test.ts).
 *
 * Integer textures (RGBA32UI) hold the float bits: they are colour-renderable in WebGL2 without extensions.
 */
import { Buffer, type Device, type Framebuffer, type Texture } from '@luma.gl/core';
import { BufferTransform, Model } from '@luma.gl/engine';
import { DR_PASS_VS, type DrUniforms, drModule } from './dr-glsl.js';
import { RECORD_TEXELS } from './gpu-record.js';
import type { GpuStaging } from './gpu-staging.js';
import { STAGED_TEXELS } from './gpu-staging.js';

/** Bytes per slot of the drawn buffer: drPosition and drStyle, two vec4. */
export const DRAWN_STRIDE = 32;

const SCATTER_VS = /* glsl */ `\
#version 300 es
precision highp float;
precision highp int;
uniform highp usampler2D drStaging;
layout(std140) uniform scatterUniforms {
  highp int stagingWidth;
  highp int stateWidth;
  highp int stateHeight;
} scatter;
flat out uvec4 vValue;
ivec2 scatter_at(int i, int width) {
  return ivec2(i % width, i / width);
}
void main(void) {
  int record = gl_VertexID / ${RECORD_TEXELS};
  int k = gl_VertexID - record * ${RECORD_TEXELS};
  int base = record * ${STAGED_TEXELS};
  int slot = int(texelFetch(drStaging, scatter_at(base + ${RECORD_TEXELS}, scatter.stagingWidth), 0).x);
  vValue = texelFetch(drStaging, scatter_at(base + k, scatter.stagingWidth), 0);
  ivec2 target = scatter_at(slot * ${RECORD_TEXELS} + k, scatter.stateWidth);
  vec2 size = vec2(float(scatter.stateWidth), float(scatter.stateHeight));
  gl_Position = vec4((vec2(target) + 0.5) / size * 2.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
`;

const SCATTER_FS = /* glsl */ `\
#version 300 es
precision highp float;
precision highp int;
flat in uvec4 vValue;
out uvec4 fragValue;
void main(void) {
  fragValue = vValue;
}
`;

const scatterModule = {
  name: 'scatter',
  vs: '',
  uniformTypes: { stagingWidth: 'i32', stateWidth: 'i32', stateHeight: 'i32' },
} as const;

/** Texels per row: a power of two the device allows, at most 4096 (a million records are 2442 rows). */
function rowWidth(device: Device, texels: number): number {
  const max = device.limits.maxTextureDimension2D;
  let width = 256;
  while (width < 4096 && width < max && width * width < texels) width *= 2;
  return Math.min(width, max);
}

const NO_CLEAR = { clearColor: false, clearDepth: false, clearStencil: false } as const;

export class GpuState {
  readonly capacity: number;
  readonly stateWidth: number;
  readonly stateHeight: number;
  /** Every slot's record (RGBA32UI, `RECORD_TEXELS` texels per slot). */
  readonly state: Texture;
  private readonly framebuffer: Framebuffer;
  private readonly staging: Texture;
  private readonly stagingWidth: number;
  private readonly scatter: Model;
  /** The readback pass and its buffer, made when first asked for. */
  private pass: BufferTransform | null = null;
  private readBuffer: Buffer | null = null;

  /**
   * @param maxStaged - records one `upload` takes (`GpuStaging.maxRecords`).
   */
  constructor(
    readonly device: Device,
    capacity: number,
    maxStaged: number,
  ) {
    this.capacity = capacity;
    const texels = capacity * RECORD_TEXELS;
    this.stateWidth = rowWidth(device, texels);
    this.stateHeight = Math.ceil(texels / this.stateWidth);
    const nearest = { minFilter: 'nearest', magFilter: 'nearest' } as const;
    this.state = device.createTexture({
      id: 'entity-state',
      format: 'rgba32uint',
      width: this.stateWidth,
      height: this.stateHeight,
      sampler: nearest,
    });
    this.framebuffer = device.createFramebuffer({
      id: 'entity-state',
      width: this.stateWidth,
      height: this.stateHeight,
      colorAttachments: [this.state],
    });
    // Every slot starts inactive (a record of zeros).
    const clear = device.beginRenderPass({ framebuffer: this.framebuffer, clearColors: [new Uint32Array(4)] });
    clear.end();
    const stagedTexels = maxStaged * STAGED_TEXELS;
    this.stagingWidth = rowWidth(device, stagedTexels);
    this.staging = device.createTexture({
      id: 'entity-staging',
      format: 'rgba32uint',
      width: this.stagingWidth,
      height: Math.ceil(stagedTexels / this.stagingWidth),
      sampler: nearest,
    });
    this.scatter = new Model(device, {
      id: 'entity-state-scatter',
      vs: SCATTER_VS,
      fs: SCATTER_FS,
      modules: [scatterModule],
      topology: 'point-list',
      vertexCount: 0,
      parameters: { blend: false, depthWriteEnabled: false, depthCompare: 'always' },
    });
    this.scatter.shaderInputs.setProps({
      scatter: { stagingWidth: this.stagingWidth, stateWidth: this.stateWidth, stateHeight: this.stateHeight },
    });
    this.scatter.setBindings({ drStaging: this.staging });
  }

  /** Writes the staged records into the state texture and empties the staging. */
  upload(staging: GpuStaging): void {
    const n = staging.count;
    if (n === 0) return;
    const rows = Math.ceil((n * STAGED_TEXELS) / this.stagingWidth);
    this.staging.writeData(staging.bits, { x: 0, y: 0, width: this.stagingWidth, height: rows });
    this.scatter.setVertexCount(n * RECORD_TEXELS);
    const pass = this.device.beginRenderPass({
      id: 'entity-state-scatter',
      framebuffer: this.framebuffer,
      ...NO_CLEAR,
    });
    this.scatter.draw(pass);
    pass.end();
    staging.count = 0;
  }

  /**
   * Dead-reckons slots [0, count) as the layers do and returns the result: per slot, longitude and latitude as float
   * pairs (lonHi, latHi, lonLo, latLo, degrees) and heading°, icon, force, 1 when drawn (8 floats). Reads the GPU
   * back (a stall): for tests, not for frames.
   */
  extrapolate(count: number, uniforms: DrUniforms): Float32Array {
    if (this.pass === null) {
      this.pass = new BufferTransform(this.device, {
        id: 'entity-dr',
        vs: DR_PASS_VS,
        modules: [drModule],
        outputs: ['drPosition', 'drStyle'],
        feedbackBufferMode: 'interleaved',
        topology: 'point-list',
        vertexCount: 0,
      });
      this.pass.model.setBindings({ drState: this.state });
      this.readBuffer = this.device.createBuffer({
        id: 'entity-dr',
        byteLength: DRAWN_STRIDE * this.capacity,
        usage: Buffer.VERTEX,
      });
    }
    const model = this.pass.model;
    model.shaderInputs.setProps({ dr: uniforms });
    model.setVertexCount(count);
    this.pass.run({ outputBuffers: { drPosition: this.readBuffer! }, ...NO_CLEAR });
    const bytes = this.readBuffer!.readSyncWebGL(0, DRAWN_STRIDE * count);
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  }

  /** The DR uniforms for a frame (a new object: deck.gl compares a layer's props by reference). */
  uniforms(
    nowHi: number,
    nowLo: number,
    smoothingMethod: number,
    smoothingSeconds: number,
    referenceLonDeg: number,
  ): DrUniforms {
    return { nowHi, nowLo, smoothingMethod, smoothingSeconds, referenceLonDeg, stateWidth: this.stateWidth };
  }

  destroy(): void {
    this.pass?.destroy();
    this.readBuffer?.destroy();
    this.scatter.destroy();
    this.framebuffer.destroy();
    this.state.destroy();
    this.staging.destroy();
  }
}
