/**
 * A deck.gl layer that draws entities straight from the GPU's state (src/view/page/gpu/gpu-state.ts): its vertex
 * shader dead-reckons each entity it draws (`drEntity`, dr-glsl.ts) at the frame's time and places it at its
 * longitude and latitude float pair through deck.gl's own projection (its 64-bit low part where deck.gl offsets
 * positions by the viewport's centre), so no position passes through the CPU. Two ways of drawing:
 *
 * - `dots`: every slot as one point in its force's colour, the vertex its slot (one vertex per entity: the cheapest
 *   primitive there is, which a GPU emulated on the CPU feels most) — when too many are in view to read;
 * - `icons` and `rings` (the raw DR ghosts): a quad per slot of a list (the readable entities in view, a few
 *   thousand at most): the MIL-STD-2525C symbol from the page's atlas turned to the heading, or a ring.
 *
 * Picking is deck.gl's: `info.index` is the slot.
 */
import { Layer, type LayerContext, type UpdateParameters, picking, project32 } from '@deck.gl/core';
import type { Buffer, Texture } from '@luma.gl/core';
import { type DrUniforms, drModule } from './dr-glsl.js';
import { Geometry, Model } from '@luma.gl/engine';

/** How the entities look. */
export const STYLE_ICONS = 0;
export const STYLE_DOTS = 1;
export const STYLE_RINGS = 2;

type Rgba = readonly [number, number, number, number];

/** The props of an `EntitySymbolLayer` besides deck.gl's own (`id`, `pickable`, `onClick`, …). */
export type EntitySymbolProps = {
  /** The entities' records and the DR pass's uniforms (the frame's time, smoothing, reference longitude). */
  state: Texture;
  dr: DrUniforms;
  style: number;
  /** Dots: slots [0, slots). Icons and rings: the slots in `list` (a buffer of float32 slots), `listCount` of them. */
  slots: number;
  list: Buffer | null;
  listCount: number;
  /** The symbol atlas (a canvas; a new one when it grew). */
  atlas: HTMLCanvasElement;
  /** The icons' frames in the atlas: x, y, width, height, anchor x, anchor y, 0, 0 per icon index. */
  iconFrames: Float32Array;
  /** Bumped whenever `iconFrames` changed. */
  iconVersion: number;
  /** Symbol height, or dot and ring radius, px. */
  sizePx: number;
  /** Ring line width, px. */
  lineWidthPx: number;
  /** The ring's colour, then the dots' by force affiliation (friend, hostile, neutral, unknown), 0–255. */
  colours: readonly Rgba[];
  /** Changes every frame the state or the time changed: deck.gl draws the layer again. */
  frame: number;
};

const UNIFORM_BLOCK = /* glsl */ `\
layout(std140) uniform entitySymbolUniforms {
  highp int style;
  float sizePx;
  float lineWidthPx;
  vec2 atlasSize;
  vec4 colour0;
  vec4 colour1;
  vec4 colour2;
  vec4 colour3;
  vec4 colour4;
} entitySymbol;
`;

const symbolModule = {
  name: 'entitySymbol',
  vs: UNIFORM_BLOCK,
  fs: UNIFORM_BLOCK,
  uniformTypes: {
    style: 'i32',
    sizePx: 'f32',
    lineWidthPx: 'f32',
    atlasSize: 'vec2<f32>',
    colour0: 'vec4<f32>',
    colour1: 'vec4<f32>',
    colour2: 'vec4<f32>',
    colour3: 'vec4<f32>',
    colour4: 'vec4<f32>',
  },
} as const;

/** The vertex shader: `QUADS` 1 for the instanced quads (icons, rings), 0 for the points (dots). */
const VS = /* glsl */ `\
#version 300 es
#define SHADER_NAME entity-symbol-layer-vertex-shader
#if QUADS
in vec2 positions;
in float instanceSlot;
#endif
uniform highp sampler2D iconFrames;
out vec2 vTextureCoords;
out vec2 vUv;
out vec4 vColor;

vec4 entity_colour(float force) {
  // DIS force id → affiliation as src/view/page/map/symbols.ts affiliationOf: 1, 4, 7… friend; 2, 5… hostile; 3, 6… neutral.
  int f = int(force);
  if (f <= 0 || f > 255) return entitySymbol.colour4;
  int k = (f - 1) - ((f - 1) / 3) * 3;
  return k == 0 ? entitySymbol.colour1 : (k == 1 ? entitySymbol.colour2 : entitySymbol.colour3);
}

void main(void) {
#if QUADS
  int slot = int(instanceSlot);
  vec2 corner = positions;
#else
  int slot = gl_VertexID;
  vec2 corner = vec2(0.0);
  gl_PointSize = 2.0 * entitySymbol.sizePx + 1.0;
#endif
  geometry.pickingColor = picking_getPickingColorFromIndex(float(slot));
  geometry.uv = corner;
  vUv = corner;
  vColor = vec4(0.0);
  vTextureCoords = vec2(0.0);
  vec4 drawn, style;
  drEntity(slot, drawn, style);
  if (style.w == 0.0) {
    // A free slot: outside the clip volume, nothing drawn or picked.
    gl_Position = vec4(0.0, 0.0, 2.0, 1.0);
    return;
  }
  vec3 position = vec3(drawn.xy, 0.0);
  vec3 position64Low = vec3(drawn.zw, 0.0);
  // deck.gl reads the low part only where it subtracts the viewport's centre first (zoom 12 and up, near the centre).
  if (project.projectionMode != PROJECTION_MODE_WEB_MERCATOR_AUTO_OFFSET ||
      abs(position.y - project.coordinateOrigin.y) > 0.25) {
    position += position64Low;
    position64Low = vec3(0.0);
  }
  geometry.worldPosition = position;
  gl_Position = project_position_to_clipspace(position, position64Low, vec3(0.0), geometry.position);
  DECKGL_FILTER_GL_POSITION(gl_Position, geometry);
  vec2 pixelOffset = vec2(0.0);
  if (entitySymbol.style == 0) {
    // As deck.gl's IconLayer: the frame in the atlas, the anchor, turned by −heading (counterclockwise degrees).
    int icon = int(style.y);
    vec4 frame = texelFetch(iconFrames, ivec2(2 * icon, 0), 0);
    vec2 anchor = texelFetch(iconFrames, ivec2(2 * icon + 1, 0), 0).xy;
    vec2 iconSize = frame.zw;
    float scale = iconSize.y == 0.0 ? 0.0 : entitySymbol.sizePx / iconSize.y;
    vec2 offset = corner / 2.0 * iconSize + (iconSize / 2.0 - anchor);
    float angle = radians(-style.x);
    float c = cos(angle), s = sin(angle);
    pixelOffset = mat2(c, -s, s, c) * offset * scale;
    pixelOffset.y *= -1.0;
    vTextureCoords = mix(frame.xy, frame.xy + iconSize, (corner + 1.0) / 2.0) / entitySymbol.atlasSize;
    vColor = vec4(1.0);
  } else {
    float radius = entitySymbol.sizePx + (entitySymbol.style == 2 ? entitySymbol.lineWidthPx / 2.0 : 0.0);
    pixelOffset = corner * radius;
    vColor = entitySymbol.style == 2 ? entitySymbol.colour0 : entity_colour(style.z);
  }
  vec3 offset = vec3(pixelOffset, 0.0);
  DECKGL_FILTER_SIZE(offset, geometry);
  gl_Position.xy += project_pixel_size_to_clipspace(offset.xy);
  DECKGL_FILTER_COLOR(vColor, geometry);
}
`;

const FS = /* glsl */ `\
#version 300 es
#define SHADER_NAME entity-symbol-layer-fragment-shader
precision highp float;
uniform sampler2D iconsTexture;
in vec2 vTextureCoords;
in vec2 vUv;
in vec4 vColor;
out vec4 fragColor;
void main(void) {
#if QUADS
  vec2 uv = vUv;
#else
  vec2 uv = gl_PointCoord * 2.0 - 1.0;
#endif
  geometry.uv = uv;
  if (entitySymbol.style == 0) {
    vec4 texel = texture(iconsTexture, vTextureCoords);
    float a = texel.a * layer.opacity;
    if (a < 0.05) discard;
    fragColor = vec4(texel.rgb, a);
  } else {
    float r = length(uv);
    float radius = entitySymbol.sizePx + (entitySymbol.style == 2 ? entitySymbol.lineWidthPx / 2.0 : 0.0);
    float inner = entitySymbol.style == 2 ? 1.0 - entitySymbol.lineWidthPx / radius : 0.0;
    if (r > 1.0 || r < inner) discard;
    fragColor = vec4(vColor.rgb, vColor.a * layer.opacity);
  }
  DECKGL_FILTER_COLOR(fragColor, geometry);
}
`;

const normalised = (c: Rgba): [number, number, number, number] => [c[0] / 255, c[1] / 255, c[2] / 255, c[3] / 255];

type State = {
  /** Both models, for deck.gl to hand them the picking module's props. */
  models: Model[];
  points: Model;
  quads: Model;
  atlasTexture: Texture | null;
  atlasCanvas: HTMLCanvasElement | null;
  frameTexture: Texture | null;
  iconVersion: number;
};

export class EntitySymbolLayer extends Layer<Required<EntitySymbolProps>> {
  static override layerName = 'EntitySymbolLayer';
  declare state: State;

  override getShaders() {
    return super.getShaders({ vs: VS, fs: FS, modules: [project32, picking, drModule, symbolModule] });
  }

  override initializeState(): void {
    const shaders = this.getShaders();
    const device = this.context.device;
    const points = new Model(device, {
      ...shaders,
      id: `${this.props.id}-points`,
      defines: { ...shaders.defines, QUADS: 0 },
      topology: 'point-list',
      vertexCount: 0,
    });
    const quads = new Model(device, {
      ...shaders,
      id: `${this.props.id}-quads`,
      defines: { ...shaders.defines, QUADS: 1 },
      bufferLayout: [{ name: 'instanceSlot', stepMode: 'instance', format: 'float32' }],
      geometry: new Geometry({
        topology: 'triangle-strip',
        attributes: { positions: { size: 2, value: new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]) } },
      }),
      isInstanced: true,
      instanceCount: 0,
    });
    this.state = {
      models: [points, quads],
      points,
      quads,
      atlasTexture: null,
      atlasCanvas: null,
      frameTexture: null,
      iconVersion: -1,
    };
  }

  override updateState(params: UpdateParameters<this>): void {
    super.updateState(params);
    const { props } = params;
    const device = this.context.device;
    const state = this.state;
    if (props.style === STYLE_ICONS && state.atlasCanvas !== props.atlas) {
      state.atlasTexture?.destroy();
      state.atlasCanvas = props.atlas;
      state.atlasTexture = device.createTexture({
        id: `${props.id}-atlas`,
        format: 'rgba8unorm',
        width: props.atlas.width,
        height: props.atlas.height,
        sampler: {
          minFilter: 'linear',
          magFilter: 'linear',
          addressModeU: 'clamp-to-edge',
          addressModeV: 'clamp-to-edge',
        },
      });
      state.atlasTexture.copyExternalImage({ image: props.atlas });
    }
    if (state.frameTexture === null || state.iconVersion !== props.iconVersion) {
      state.frameTexture?.destroy();
      state.iconVersion = props.iconVersion;
      const texels = Math.max(2, props.iconFrames.length / 4);
      const data = new Float32Array(4 * texels);
      data.set(props.iconFrames.subarray(0, 4 * texels));
      state.frameTexture = device.createTexture({
        id: `${props.id}-frames`,
        format: 'rgba32float',
        width: texels,
        height: 1,
        sampler: { minFilter: 'nearest', magFilter: 'nearest' },
      });
      state.frameTexture.writeData(data);
    }
  }

  override finalizeState(context: LayerContext): void {
    super.finalizeState(context);
    this.state.points?.destroy();
    this.state.quads?.destroy();
    this.state.atlasTexture?.destroy();
    this.state.frameTexture?.destroy();
  }

  override draw(): void {
    const { props, state } = this;
    const quads = props.style !== STYLE_DOTS;
    const model = quads ? state.quads : state.points;
    if (quads) {
      if (props.list === null || props.listCount === 0) return;
      model.setInstanceCount(props.listCount);
      model.setAttributes({ instanceSlot: props.list });
    } else {
      if (props.slots === 0) return;
      model.setVertexCount(props.slots);
    }
    const [c0, c1, c2, c3, c4] = props.colours.map(normalised) as [number, number, number, number][];
    model.setBindings({
      drState: props.state,
      iconFrames: state.frameTexture!,
      // Dots and rings sample no symbol, but the binding must be there.
      iconsTexture: state.atlasTexture ?? state.frameTexture!,
    });
    model.shaderInputs.setProps({
      dr: props.dr,
      entitySymbol: {
        style: props.style,
        sizePx: props.sizePx,
        lineWidthPx: props.lineWidthPx,
        atlasSize: [props.atlas.width, props.atlas.height],
        colour0: c0,
        colour1: c1,
        colour2: c2,
        colour3: c3,
        colour4: c4,
      },
    });
    model.draw(this.context.renderPass);
  }
}
