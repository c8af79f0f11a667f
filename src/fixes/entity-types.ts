/**
 * DIS entity types (SISO-REF-010) for live traffic, as specific as the data allows: an aircraft's ICAO type
 * designator (ICAO Doc 8643, as readsb's aircraft database gives it in "t") by the SISO name of that model, else
 * its ADS-B emitter category (DO-260B §2.2.3.2.5.2) by the civilian classes SISO lists by weight; a vessel's AIS
 * ship and cargo type (ITU-R M.1371-5 Table 53) and length by SISO's civilian surface categories.
 */
import { entityTypeByName } from '../names/entity-type-search.js';

/** A DIS entity type as its seven numbers: kind, domain, country, category, subcategory, specific, extra. */
export type EntityTypeNumbers = [number, number, number, number, number, number, number];

/** ICAO type designators and the SISO name of the model (each found by `entityTypeByName`; a test checks them). */
export const AIRCRAFT_TYPE_NAMES: Readonly<Record<string, string>> = {
  A318: 'Airbus A318',
  A319: 'Airbus A319',
  A19N: 'Airbus A319',
  A320: 'Airbus A320',
  A20N: 'Airbus A320',
  A321: 'Airbus A321',
  A21N: 'Airbus A321',
  A306: 'Airbus A300',
  A30B: 'Airbus A300',
  A310: 'Airbus A310',
  A332: 'Airbus A330',
  A333: 'Airbus A330',
  A338: 'Airbus A330',
  A339: 'Airbus A330',
  A342: 'Airbus A340',
  A343: 'Airbus A340',
  A345: 'Airbus A340',
  A346: 'Airbus A340',
  A359: 'Airbus A350',
  A35K: 'Airbus A350',
  A388: 'Airbus A380',
  A400: 'Airbus A400M Atlas',
  B703: 'Boeing 707',
  B712: 'Boeing 717',
  B721: 'Boeing 727',
  B722: 'Boeing 727',
  B732: 'Boeing 737-200',
  B733: 'Boeing 737-300',
  B734: 'Boeing 737-400',
  B735: 'Boeing 737-500',
  B736: 'Boeing 737-600',
  B737: 'Boeing 737-700',
  B738: 'Boeing 737-800',
  B739: 'Boeing 737-900',
  B37M: 'Boeing 737 MAX 7',
  B38M: 'Boeing 737 MAX 8',
  B39M: 'Boeing 737 MAX 9',
  B3XM: 'Boeing 737 MAX 10',
  B741: 'Boeing 747',
  B742: 'Boeing 747',
  B744: 'Boeing 747',
  B748: 'Boeing 747',
  B752: 'Boeing 757',
  B753: 'Boeing 757',
  B762: 'Boeing 767',
  B763: 'Boeing 767',
  B764: 'Boeing 767',
  B772: 'Boeing 777',
  B773: 'Boeing 777',
  B77L: 'Boeing 777',
  B77W: 'Boeing 777',
  B778: 'Boeing 777',
  B779: 'Boeing 777',
  B788: 'Boeing 787',
  B789: 'Boeing 787',
  B78X: 'Boeing 787',
  E170: 'Embraer EMB 170',
  E75L: 'Embraer EMB 170',
  E75S: 'Embraer EMB 170',
  E190: 'Embraer EMB 190',
  E195: 'Embraer EMB 190',
  E290: 'Embraer EMB 190',
  E295: 'Embraer EMB 190',
  E135: 'Embraer ERJ 145 Series',
  E145: 'Embraer ERJ 145 Series',
  E45X: 'Embraer ERJ 145 Series',
  E120: 'Embraer EMB 120 Brasilia',
  E50P: 'Embraer EMB-500 Phenom 100',
  E55P: 'Embraer EMB-505 Phenom 300',
  CRJ2: 'Bombardier CRJ200 Series',
  CRJ7: 'Bombardier CRJ700 Series',
  CRJ9: 'Bombardier CRJ700 Series',
  CRJX: 'Bombardier CRJ700 Series',
  CL60: 'Bombardier Challenger 600',
  GLEX: 'Bombardier Global Express Series',
  GL5T: 'Bombardier Global Express Series',
  GL7T: 'Bombardier Global Express Series',
  DH8C: 'Bombardier Aerospace DHC-8 Dash 8 Series 300, 400',
  DH8D: 'Bombardier Aerospace DHC-8 Dash 8 Series 300, 400',
  AT72: 'ATR 72',
  AT75: 'ATR 72',
  AT76: 'ATR 72',
  F100: 'Fokker 100',
  F70: 'Fokker 70',
  F50: 'Fokker 50',
  SB20: 'Saab 2000',
  B461: 'British Aerospace 146',
  B462: 'British Aerospace 146',
  B463: 'British Aerospace 146',
  BA11: 'BAC-111',
  DC10: 'McDonnell Douglas DC-10',
  MD11: 'McDonnell Douglas MD-11',
  MD81: 'McDonnell Douglas MD-80',
  MD82: 'McDonnell Douglas MD-80',
  MD83: 'McDonnell Douglas MD-80',
  MD87: 'McDonnell Douglas MD-80',
  MD88: 'McDonnell Douglas MD-80',
  MD90: 'McDonnell Douglas MD-90',
  DC93: 'McDonnell Douglas DC-9',
  DC95: 'McDonnell Douglas DC-9',
  L101: 'Lockheed L-1011',
  GLF4: 'Gulfstream Aerospace Gulfstream IV',
  GLF5: 'Gulfstream V',
  FA6X: 'Falcon 6X',
  FA7X: 'Falcon 7X',
  FA8X: 'Falcon 8X',
  C919: 'Comac C919',
  A148: 'Antonov An-148',
  T154: 'Tupolev TU-154 Careless',
  C152: 'Cessna 152',
  C172: 'Cessna 172 Skyhawk',
  C182: 'Cessna 182 Skyland',
  C206: 'Cessna 206',
  C210: 'Cessna 210 Centurion',
  C421: 'Cessna 421 Golden Eagle',
  C25A: 'Cessna CitationJet',
  C25B: 'Cessna CitationJet',
  C525: 'Cessna CitationJet',
  P28A: 'Piper PA-28 Cherokee',
  J3: 'Piper J-3 Cub',
  PA34: 'Piper PA-34 Seneca',
  SR20: 'Cirrus SR20',
  SR22: 'Cirrus SR22',
  BE36: 'Beechcraft Model 36 Bonanza',
  BE76: 'Beechcraft Model 76 Duchess',
  BE55: 'Beechcraft Baron',
  BE58: 'Beechcraft Baron',
  BE20: 'Beechcraft King Air',
  BE9L: 'Beechcraft King Air',
  B350: 'Beechcraft King Air',
  B190: 'Beechcraft 1900',
  AT8T: 'Air Tractor AT-802 SEAT',
  A109: 'Agusta Westland AW109',
  A169: 'AgustaWestland AW169',
  A139: 'Leonardo (AgustaWestland) AW139',
  EC25: 'Airbus Helicopters EC225 Super Puma Mk II+',
  EC35: 'Eurocopter EC135',
  EC45: 'Eurocopter EC145 / BK 117 C2',
  EC55: 'Airbus Helicopters H155 (EC155)',
  AS32: 'Eurocopter AS332 Super Puma',
  B105: 'BO-105',
  B06: 'Bell 206',
  B212: 'Bell 212',
  B412: 'Bell 412',
  B429: 'Bell 429',
  B47G: 'Bell 47',
  R22: 'Robinson R22',
  R66: 'Robinson R66',
  S61: 'Sikorsky S-61',
  S64: 'Sikorsky S-64 Skycrane',
  S70: 'Sikorsky S-70',
  S76: 'Sikorsky S-76',
  S92: 'Sikorsky S-92',
};

const found = new Map<string, EntityTypeNumbers | null>();

/** The SISO type of an ICAO type designator, or undefined when the table has none. */
export function entityTypeOfDesignator(designator: string): EntityTypeNumbers | undefined {
  const key = designator.trim().toUpperCase();
  const name = Object.hasOwn(AIRCRAFT_TYPE_NAMES, key) ? AIRCRAFT_TYPE_NAMES[key] : undefined;
  if (name === undefined) return undefined;
  let type = found.get(key);
  if (type === undefined) {
    type = entityTypeByName(name, { kind: 1, domain: 2 }) ?? null;
    found.set(key, type);
  }
  return type ?? undefined;
}

/**
 * The generic civilian type of an ADS-B emitter category (0xA1 is A1 …): set A by weight class (A1 light <
 * 15,500 lb → small, A2 → medium, A3 and A4 → large, A5 heavy, A6 high performance → fighter class, A7 rotorcraft
 * → helicopter), set B (glider, lighter than air, ultralight, UAV, space), set C (surface vehicles).
 */
export function entityTypeOfCategory(category: number): EntityTypeNumbers {
  const air = (cat: number, sub = 0): EntityTypeNumbers => [1, 2, 0, cat, sub, 0, 0];
  switch (category) {
    case 0xa1:
      return air(85);
    case 0xa2:
      return air(86);
    case 0xa3:
      return air(87);
    case 0xa4:
      return air(87, 32); // high-vortex large: the B757, a twin jet
    case 0xa5:
      return air(88);
    case 0xa6:
      return air(1); // Fighter/Air Defense
    case 0xa7:
      return air(90);
    case 0xb1:
      return air(83);
    case 0xb2:
      return air(100);
    case 0xb3:
    case 0xb4:
      return air(80);
    case 0xb6:
      return air(50, 1);
    case 0xb7:
      return [1, 5, 0, 0, 0, 0, 0];
    case 0xc1:
      return [1, 1, 0, 84, 0, 0, 0]; // Single Unit Utility/Emergency Truck
    case 0xc2:
      return [1, 1, 0, 93, 0, 0, 0]; // Utility/Emergency Car
    default:
      return air(0);
  }
}

/** An aircraft's type: its designator's model when known, else its emitter category's class. */
export function aircraftEntityType(designator: string, category: number): EntityTypeNumbers {
  return (designator !== '' ? entityTypeOfDesignator(designator) : undefined) ?? entityTypeOfCategory(category);
}

/** SISO's size classes of pleasure craft and fishing vessels (subcategories 1–4), by length in metres. */
function sizeClass(lengthM: number, limits: readonly number[]): number {
  if (!(lengthM > 0)) return 0;
  for (let k = 0; k < limits.length; k++) if (lengthM <= limits[k]!) return k + 1;
  return limits.length + 1;
}

/**
 * A vessel's type from its AIS ship and cargo type (-1 unknown) and length (m, 0 unknown): surface platform,
 * country Other, SISO's civilian categories 80–87.
 */
export function vesselEntityType(shipType: number, lengthM: number): EntityTypeNumbers {
  const sea = (cat: number, sub = 0): EntityTypeNumbers => [1, 3, 0, cat, sub, 0, 0];
  const first = Math.floor(shipType / 10);
  if (shipType === 30) return sea(86, sizeClass(lengthM, [7.9, 19.8])); // fishing
  if (shipType === 31 || shipType === 32 || shipType === 52) return sea(83, 3); // towing, tug
  if (shipType === 33) return sea(87, 5); // dredging
  if (shipType === 34) return sea(83, 4); // diving
  if (shipType === 35) return sea(0); // military operations: a surface platform
  if (shipType === 36) return sea(85, sizeClass(lengthM, [7.9, 11.9, 19.8])); // sailing
  if (shipType === 37) return sea(84, sizeClass(lengthM, [7.9, 11.9, 19.8])); // pleasure craft
  if (first === 4) return sea(80, 3); // high-speed craft
  if (shipType === 53) return sea(83, 2); // port tender
  if (first === 5) return sea(83); // pilot, SAR, anti-pollution, law enforcement, medical
  if (first === 6) return sea(80); // passenger
  if (first === 7) return sea(81, 1); // cargo
  if (first === 8) return sea(82); // tanker
  if (first === 2 || first === 9) return sea(87); // wing in ground, other
  return sea(0);
}
