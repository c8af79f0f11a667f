/**
 * The GPU's dead reckoning (GLSL ES 3.00): the models of src/dr/models/store.ts and the smoothing of
 * src/dr/receiver/position-smoothing.ts and orientation-smoothing.ts, evaluated per entity from its record
 * (src/view/page/gpu/gpu-record.ts) at the frame's time, in float32, then turned into what the map draws: longitude
 * and latitude as float pairs (high part, rest) and the heading. The record keeps every quantity small (metres from
 * the PDU's place in its East-North-Up frame, seconds after the reference time), so float32 keeps centimetres;
 * test/view/page-gpu-dr.test.ts holds the result to the table's float64 evaluation within 0.1 m after 10 s.
 */
import { FLAG_ACTIVE, FLAG_KERNEL_SHIFT, FLAG_SMOOTHING, RECORD_TEXELS } from './gpu-record.js';
import { SMOOTH_CONVERGENCE, SMOOTH_PROJECTIVE } from '../../../dr/receiver/position-smoothing.js';
import { KERNEL_ROTATING_BODY } from '../../../dr/models/store.js';
import { WGS84_A, WGS84_E2 } from '../../../math/geodesy.js';

/** The uniforms of `drEntity` (a luma.gl shader module's uniform block): the frame's time and how it is shown. */
export type DrUniforms = {
  /** Frame time after the page's time base, seconds, as a float pair. */
  nowHi: number;
  nowLo: number;
  /** `SMOOTHING_METHODS` code (position-smoothing.ts), 0 to draw the raw dead-reckoned state. */
  smoothingMethod: number;
  smoothingSeconds: number;
  /** Longitude the drawn longitudes are the copy nearest to (the map's centre), degrees. */
  referenceLonDeg: number;
  /** Texels per row of the state texture. */
  stateWidth: number;
};

export const drUniformTypes = {
  nowHi: 'f32',
  nowLo: 'f32',
  smoothingMethod: 'i32',
  smoothingSeconds: 'f32',
  referenceLonDeg: 'f32',
  stateWidth: 'i32',
} as const;

const UNIFORM_BLOCK = /* glsl */ `\
layout(std140) uniform drUniforms {
  float nowHi;
  float nowLo;
  highp int smoothingMethod;
  float smoothingSeconds;
  float referenceLonDeg;
  highp int stateWidth;
} dr;
`;

/** A float literal for GLSL (always with a point or exponent). */
const f = (x: number): string => {
  const text = String(x);
  return /[.eE]/.test(text) ? text : `${text}.0`;
};

/**
 * Functions: `drEntity(slot, out vec4 position, out vec4 style)`, position = (lonHi, latHi, lonLo, latLo) degrees,
 * style = (heading degrees clockwise from north, icon, force, 1 when drawn).
 */
const FUNCTIONS = /* glsl */ `\
uniform highp usampler2D drState;

const uint DR_FLAG_ACTIVE = ${FLAG_ACTIVE}u;
const uint DR_FLAG_SMOOTHING = ${FLAG_SMOOTHING}u;
const int DR_KERNEL_BODY = ${KERNEL_ROTATING_BODY};
const float DR_A = ${f(WGS84_A)};
const float DR_E2 = ${f(WGS84_E2)};
const float DR_DEG = 57.29577951308232;

uvec4 dr_texel(int slot, int k) {
  int i = slot * ${RECORD_TEXELS} + k;
  return texelFetch(drState, ivec2(i % dr.stateWidth, i / dr.stateWidth), 0);
}

vec4 dr_quatMul(vec4 a, vec4 b) {
  return vec4(
    a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z
  );
}

// sin and cos to a float32 ulp or two: GLSL leaves their precision to the GPU, and some (SwiftShader among them)
// are off by 1e-4, a tenth of a metre over a kilometre of a turning body-axis path. Cody-Waite reduction by π/2 and
// the minimax polynomials of Cephes' sinf and cosf (|x| ≤ π/4).
vec2 dr_sinCos(float x) {
  float j = floor(x * 0.63661977236758134 + 0.5);
  float r = ((x - j * 1.5703125) - j * 4.837512969970703125e-4) - j * 7.54978995489188216e-8;
  float z = r * r;
  float s = r + r * z * (-1.6666654611e-1 + z * (8.3321608736e-3 + z * -1.9515295891e-4));
  float c = 1.0 - 0.5 * z + z * z * (4.166664568298827e-2 + z * (-1.388731625493765e-3 + z * 2.443315711809948e-5));
  int q = int(j) & 3;
  return q == 0 ? vec2(s, c) : (q == 1 ? vec2(c, -s) : (q == 2 ? vec2(-s, -c) : vec2(-c, s)));
}

// atan of a small ratio (a displacement over the Earth's radius) by its series, exact to float32 below 0.01; atan
// beyond. Also free of the GPU's own precision.
float dr_atanSmall(float z) {
  if (abs(z) >= 0.01) return atan(z);
  float z2 = z * z;
  return z * (1.0 - z2 * (1.0 / 3.0 - z2 * 0.2));
}

// atan2 without the GPU's two-argument atan (which some return π for at y = ±0).
float dr_atan2(float y, float x) {
  if (abs(x) >= abs(y)) {
    if (x == 0.0) return 0.0;
    float a = atan(y / x);
    return x > 0.0 ? a : (y >= 0.0 ? a + 3.14159265358979 : a - 3.14159265358979);
  }
  float a = -atan(x / y);
  return y > 0.0 ? a + 1.5707963267949 : a - 1.5707963267949;
}

// The coefficients of src/dr/models/rotation.ts; series below θ = 0.3 where the closed form cancels.
float dr_oneMinusCosOverSq(float t) {
  if (t < 1e-3) return 0.5 - t * t / 24.0;
  float s = dr_sinCos(0.5 * t).x / t;
  return 2.0 * s * s;
}
float dr_sinc(float t) {
  return t < 1e-3 ? 1.0 - t * t / 6.0 : dr_sinCos(t).x / t;
}
float dr_thetaMinusSinOverCube(float t) {
  if (t >= 0.3) return (t - dr_sinCos(t).x) / (t * t * t);
  float x = t * t;
  return 1.0 / 6.0 - x * (1.0 / 120.0 - x * (1.0 / 5040.0 - x * (1.0 / 362880.0 - x / 39916800.0)));
}
float dr_sinMinusThetaCosOverCube(float t) {
  vec2 sc = dr_sinCos(t);
  if (t >= 0.3) return (sc.x - t * sc.y) / (t * t * t);
  float x = t * t;
  return 1.0 / 3.0 - x * (1.0 / 30.0 - x * (1.0 / 840.0 - x * (1.0 / 45360.0 - x / 3991680.0)));
}
float dr_r2OuterCoefficient(float t) {
  vec2 sc = dr_sinCos(t);
  if (t >= 0.3) return (0.5 * t * t + 1.0 - sc.y - t * sc.x) / (t * t * t * t);
  float x = t * t;
  return 1.0 / 8.0 - x * (1.0 / 144.0 - x * (1.0 / 5760.0 - x * (1.0 / 403200.0 - x * 11.0 / 479001600.0)));
}

// Row i of the rotation matrix (row-major, src/math/quat.ts toMat3) of q.
vec3 dr_row0(vec4 q) { return vec3(1.0 - 2.0 * (q.y * q.y + q.z * q.z), 2.0 * (q.x * q.y - q.w * q.z), 2.0 * (q.x * q.z + q.w * q.y)); }
vec3 dr_row1(vec4 q) { return vec3(2.0 * (q.x * q.y + q.w * q.z), 1.0 - 2.0 * (q.x * q.x + q.z * q.z), 2.0 * (q.y * q.z - q.w * q.x)); }
vec3 dr_row2(vec4 q) { return vec3(2.0 * (q.x * q.z - q.w * q.y), 2.0 * (q.y * q.z + q.w * q.x), 1.0 - 2.0 * (q.x * q.x + q.y * q.y)); }

void drEntity(int slot, out vec4 position, out vec4 style) {
  uvec4 t2 = dr_texel(slot, 2);
  uint flags = t2.w;
  if ((flags & DR_FLAG_ACTIVE) == 0u) {
    position = vec4(0.0);
    style = vec4(0.0);
    return;
  }
  vec4 place = uintBitsToFloat(dr_texel(slot, 0));
  vec4 times = uintBitsToFloat(dr_texel(slot, 1));
  uvec4 t3 = dr_texel(slot, 3);
  vec4 q0 = uintBitsToFloat(dr_texel(slot, 4));
  vec4 turn = uintBitsToFloat(dr_texel(slot, 5));
  uvec4 t6 = dr_texel(slot, 6);
  vec4 anchor = uintBitsToFloat(dr_texel(slot, 9));
  vec3 v = uintBitsToFloat(t2.xyz);
  vec3 a = uintBitsToFloat(t3.xyz);

  // Seconds since the reference (exact: both times are float pairs), and the model's: held by a Stop/Freeze.
  float dt = (dr.nowHi - times.x) + (dr.nowLo - times.y);
  float t = min(dt, times.z);

  // Orientation: DR(t)·R0 as (−ω̂ sin(|ω|t/2), cos(|ω|t/2)) ⊗ q0 (store.ts rotateSlots).
  vec2 halfTurn = dr_sinCos(0.5 * turn.w * t);
  vec4 q = dr_quatMul(vec4(turn.xyz * halfTurn.x, halfTurn.y), q0);

  // Position: metres East, North, Up from the PDU's place.
  vec3 d;
  int kernel = int((flags >> ${FLAG_KERNEL_SHIFT}u) & 3u);
  if (kernel == DR_KERNEL_BODY) {
    // P0 + R0ᵀ·(R1·V_b + R2·A_b) (store.ts bodyPosition), with ω = −axis·|ω|.
    vec3 w = -turn.xyz * turn.w;
    float theta = turn.w * abs(t);
    float t2s = t * t;
    float fc = dr_oneMinusCosOverSq(theta), fs = dr_sinc(theta);
    float g1 = dr_thetaMinusSinOverCube(theta) * t2s * t, i1 = fs * t, k1 = fc * t2s;
    float g2 = dr_r2OuterCoefficient(theta) * t2s * t2s, i2 = (fs - fc) * t2s;
    float k2 = dr_sinMinusThetaCosOverCube(theta) * t2s * t;
    vec3 b = g1 * w * dot(w, v) + i1 * v + k1 * cross(w, v) + g2 * w * dot(w, a) + i2 * a + k2 * cross(w, a);
    d = b.x * dr_row0(q0) + b.y * dr_row1(q0) + b.z * dr_row2(q0);
  } else {
    d = (v + a * t) * t;
  }

  // Smoothing (position-smoothing.ts positionOffset, orientation-smoothing.ts turnByError), held with the entity.
  if (dr.smoothingMethod != 0 && (flags & DR_FLAG_SMOOTHING) != 0u) {
    float duration = dr.smoothingSeconds;
    float tau = t - times.w;
    float s = tau >= duration ? 1.0 : (tau <= 0.0 ? 0.0 : tau / duration);
    if (s < 1.0) {
      vec3 e0 = uintBitsToFloat(t6.xyz);
      vec3 e1 = uintBitsToFloat(dr_texel(slot, 7).xyz);
      vec3 offset;
      if (dr.smoothingMethod == ${SMOOTH_CONVERGENCE}) {
        float k = 5.0 / duration;
        vec3 c = e1 + k * e0;
        offset = (e0 + c * tau) * exp(-k * tau) - s * (e0 + c * duration) * exp(-k * duration);
      } else if (dr.smoothingMethod == ${SMOOTH_PROJECTIVE}) {
        offset = (1.0 - s) * (e0 + e1 * ((1.0 - s) * tau));
      } else {
        offset = (1.0 - s) * e0;
      }
      d += offset;
      vec4 e = uintBitsToFloat(dr_texel(slot, 8));
      float len = length(e.xyz);
      if (len > 0.0) {
        float k = 1.0 - s;
        float halfAngle = dr_atan2(len, e.w);
        vec2 sc = dr_sinCos(k * halfAngle);
        vec4 part = halfAngle < 1e-6 ? vec4(k * e.xyz, 1.0) : vec4(e.xyz * (sc.x / len), sc.y);
        q = dr_quatMul(part, q);
      }
    }
  }

  // Degrees from the PDU's place: longitude exactly (the point in the meridian plane of P0), latitude by one step of
  // Newton's method on the geodetic latitude's equation with its spherical part solved exactly (atan), taken about
  // φ0 where every term is a small difference.
  float s0 = anchor.x, c0 = anchor.y, h0 = anchor.z;
  float w2 = 1.0 - DR_E2 * s0 * s0;
  float n0 = DR_A / sqrt(w2);
  float m0 = n0 * (1.0 - DR_E2) / w2;
  float px = (n0 + h0) * c0;
  float dx = -s0 * d.y + c0 * d.z;
  float dz = c0 * d.y + s0 * d.z;
  float x = px + dx;
  float dLon = dr_atanSmall(d.x / x);
  float dp = (2.0 * px * dx + dx * dx + d.x * d.x) / (sqrt(x * x + d.x * d.x) + px);
  float g = dp * s0 - dz * c0;
  float dLat = dr_atanSmall(-g / (m0 + h0 + dp * c0 + dz * s0));

  // The heading: the body x axis against north, turned by the meridians' convergence between P0 and here.
  vec3 xAxis = dr_row0(q);
  float heading = (dr_atan2(xAxis.x, xAxis.y) + dLon * s0) * DR_DEG;
  heading = heading < 0.0 ? heading + 360.0 : (heading >= 360.0 ? heading - 360.0 : heading);

  float lonLo = place.y + dLon * DR_DEG;
  float lonHi = place.x;
  float offCentre = lonHi + lonLo - dr.referenceLonDeg;
  if (abs(offCentre) > 180.0) lonHi -= 360.0 * floor(offCentre / 360.0 + 0.5);
  position = vec4(lonHi, place.z, lonLo, place.w + dLat * DR_DEG);
  style = vec4(heading, float(t3.w), float(t6.w), 1.0);
}
`;

/** The DR module: uniform block and functions, for any vertex shader that places entities. */
export const drModule = {
  name: 'dr',
  vs: `${UNIFORM_BLOCK}${FUNCTIONS}`,
  uniformTypes: drUniformTypes,
};

/**
 * The readback pass (`GpuState.extrapolate`): one vertex per slot, no rasterizing; transform feedback writes
 * `drPosition` and `drStyle` of slot i at i in its buffer (32 bytes per slot), what the layers draw as numbers.
 */
export const DR_PASS_VS = /* glsl */ `\
#version 300 es
precision highp float;
precision highp int;
out vec4 drPosition;
out vec4 drStyle;
void main(void) {
  drEntity(gl_VertexID, drPosition, drStyle);
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
`;
