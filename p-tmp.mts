import { SubjectRouter, createRoute } from './src/nats/subjects.ts';
import { latLngToCell } from 'h3-js';
import { EntityStateRecord } from './src/pdu/entity-state-record.ts';
import { encodeEntityStateInto } from './src/pdu/entity-state-encoder.ts';
import { geodeticDegreesToEcef } from './src/math/geodesy.ts';
const N = 100000;
const buf = Buffer.alloc(N * 144);
const r = new EntityStateRecord(0);
for (let i = 0; i < N; i++) { r.entity = 1 + (i % 60000); r.site = 1; r.application=1; r.exerciseId=1; r.entityType.set([1,1,225,0,0,0,0]); geodeticDegreesToEcef(r.location, 44 + Math.random() * 9, 5 + Math.random() * 12, 0); encodeEntityStateInto(r, buf, i * 144); }
const router = new SubjectRouter('dis', 5); const route = createRoute();
for (let k = 0; k < 3; k++) {
let t = performance.now();
for (let i = 0; i < N; i++) router.route(buf, i * 144, 144, route);
console.log('route', ((performance.now() - t) * 1000 / N).toFixed(2), 'us/PDU');
t = performance.now();
for (let i = 0; i < N; i++) latLngToCell(48 + i * 1e-5, 11, 5);
console.log('h3', ((performance.now() - t) * 1000 / N).toFixed(2), 'us/PDU');
}
