// Deterministic generator of realistic but unrelated tool definitions (distractors) for the
// search benchmark: same seed, same tools. Domains are chosen away from the evaluation catalogs
// (no mail, calendar, code hosting, browsers, files, clusters, CI, CRM or to-do lists), while
// verbs and the boilerplate of tool descriptions are the ones real catalogs use.

const DOMAINS = [
  ['vetclinic', 'Veterinary clinic', ['patient animal', 'vaccination', 'kennel', 'owner', 'treatment plan', 'lab panel'], ['species', 'breed', 'weight_kg', 'microchip_id', 'clinic_id']],
  ['fleet', 'Fleet telematics', ['vehicle', 'trip', 'driver shift', 'fuel card', 'geofence', 'odometer reading'], ['vin', 'plate', 'depot_id', 'from_ts', 'to_ts']],
  ['greenhouse', 'Greenhouse control', ['grow bed', 'humidity sensor', 'irrigation cycle', 'seed batch', 'lamp zone', 'nutrient mix'], ['bed_id', 'crop', 'ph', 'ec_level', 'zone']],
  ['cellar', 'Wine cellar', ['bottle', 'vintage', 'rack slot', 'tasting note', 'barrel', 'allocation'], ['winery', 'grape', 'year', 'rack', 'quantity']],
  ['library', 'Library circulation', ['book loan', 'patron card', 'hold request', 'overdue fine', 'branch shelf', 'catalogue record'], ['isbn', 'patron_id', 'branch', 'due_date', 'barcode']],
  ['parking', 'Parking operations', ['permit', 'parking bay', 'citation', 'meter', 'garage level', 'validation code'], ['zone_code', 'plate', 'bay_number', 'expires', 'operator_id']],
  ['housekeeping', 'Hotel housekeeping', ['room turnover', 'linen stock', 'minibar count', 'lost item', 'cleaning round', 'inspection'], ['room_number', 'floor', 'attendant_id', 'shift', 'priority']],
  ['cargo', 'Air cargo', ['air waybill', 'pallet', 'uld container', 'customs hold', 'cargo manifest', 'dangerous goods form'], ['awb_number', 'origin', 'destination', 'weight', 'flight_no']],
  ['meters', 'Energy metering', ['smart meter', 'consumption reading', 'tariff', 'outage report', 'feeder line', 'load profile'], ['meter_id', 'interval', 'kwh', 'substation', 'region']],
  ['robotics', 'Warehouse robotics', ['robot', 'pick task', 'charging dock', 'tote', 'aisle map', 'collision event'], ['robot_id', 'aisle', 'tote_id', 'battery', 'firmware']],
  [
    'kitchen',
    'Restaurant kitchen',
    ['recipe card', 'prep list', 'ticket order', 'allergen sheet', 'walk-in fridge log', 'supplier delivery'],
    ['station', 'covers', 'dish_id', 'temperature', 'supplier'],
  ],
  ['claims', 'Insurance claims', ['claim file', 'adjuster visit', 'policy holder', 'loss estimate', 'fraud score', 'settlement'], ['claim_number', 'policy_id', 'peril', 'amount', 'adjuster']],
  ['payroll', 'Payroll', ['payslip', 'pay run', 'tax code', 'deduction', 'timesheet', 'bonus'], ['employee_no', 'period', 'gross', 'cost_center', 'currency']],
  ['trials', 'Clinical trials', ['trial site', 'participant', 'adverse event', 'dosage arm', 'consent form', 'visit window'], ['protocol_id', 'site_id', 'arm', 'visit', 'investigator']],
  ['league', 'Sports league', ['fixture', 'player transfer', 'referee', 'standings table', 'match report', 'stadium'], ['season', 'division', 'club', 'round', 'player_id']],
  ['museum', 'Museum collection', ['artefact', 'exhibit', 'loan agreement', 'condition report', 'provenance', 'gallery'], ['accession_no', 'period', 'material', 'gallery_id', 'curator']],
  ['recycling', 'Recycling plant', ['bale', 'sorting line', 'contamination check', 'collection route', 'scale ticket', 'buyer lot'], ['material', 'line_id', 'tonnage', 'hauler', 'grade']],
  [
    'seismic',
    'Seismic network',
    ['station', 'waveform', 'tremor event', 'magnitude estimate', 'sensor calibration', 'alert bulletin'],
    ['network', 'station_code', 'channel', 'depth_km', 'magnitude'],
  ],
  ['brewery', 'Brewery', ['brew batch', 'fermenter', 'hop lot', 'keg', 'gravity reading', 'canning run'], ['batch_no', 'style', 'abv', 'tank', 'yeast']],
  ['aquarium', 'Public aquarium', ['tank', 'feeding round', 'water test', 'specimen', 'dive slot', 'quarantine'], ['tank_id', 'salinity', 'species', 'keeper', 'volume_l']],
  ['studio', 'Film production', ['shooting day', 'call sheet', 'prop', 'scene', 'location permit', 'dailies reel'], ['production', 'scene_no', 'unit', 'department', 'take']],
  ['dentallab', 'Dental laboratory', ['crown case', 'impression', 'shade match', 'aligner set', 'courier pickup', 'remake'], ['case_no', 'tooth', 'material', 'practice', 'due']],
  ['solar', 'Solar farm', ['panel string', 'inverter', 'irradiance log', 'cleaning crew', 'curtailment', 'yield forecast'], ['site', 'string_id', 'inverter_sn', 'mw', 'array']],
  ['rail', 'Railway signalling', ['signal block', 'track circuit', 'possession', 'train path', 'points machine', 'speed restriction'], ['line_code', 'mileage', 'signal_id', 'route', 'tsr_id']],
  ['ski', 'Ski resort', ['lift pass', 'piste', 'snowmaking gun', 'avalanche bulletin', 'lesson booking', 'groomer run'], ['lift', 'slope', 'depth_cm', 'instructor', 'pass_type']],
  ['livestock', 'Livestock farm', ['herd', 'milking record', 'feed ration', 'calving', 'vet visit', 'pasture rotation'], ['tag', 'paddock', 'breed', 'yield_l', 'herd_id']],
  ['apiary', 'Beekeeping', ['hive', 'queen', 'honey harvest', 'mite count', 'swarm report', 'frame inspection'], ['apiary_id', 'hive_no', 'strain', 'frames', 'season']],
  ['mining', 'Mine operations', ['drill hole', 'blast plan', 'haul truck', 'ore sample', 'ventilation fan', 'shift log'], ['pit', 'bench', 'assay', 'tonnes', 'truck_no']],
  ['lottery', 'Lottery operator', ['draw', 'ticket sale', 'prize claim', 'retailer terminal', 'jackpot', 'game rules'], ['game', 'draw_no', 'retailer_id', 'tier', 'serial']],
  ['elevators', 'Elevator maintenance', ['lift car', 'service visit', 'door fault', 'load test', 'entrapment', 'inspection certificate'], ['building', 'car_id', 'floor', 'technician', 'fault_code']],
  ['water', 'Water utility', ['pipe main', 'leak report', 'pressure zone', 'reservoir level', 'valve', 'quality sample'], ['zone', 'main_id', 'psi', 'reservoir', 'lab']],
  ['grooming', 'Pet grooming', ['grooming slot', 'coat type', 'groomer', 'pet profile', 'add-on service', 'loyalty stamp'], ['pet_id', 'salon', 'size', 'service', 'stylist']],
  ['samples', 'Lab sample tracking', ['specimen tube', 'freezer rack', 'chain of custody', 'assay run', 'aliquot', 'centrifuge'], ['tube_id', 'freezer', 'assay', 'box', 'position']],
  ['festival', 'Music festival', ['stage slot', 'artist rider', 'wristband', 'vendor pitch', 'crowd count', 'noise reading'], ['stage', 'artist', 'day', 'gate', 'db_level']],
  ['bakery', 'Industrial bakery', ['dough batch', 'oven profile', 'proofing rack', 'flour silo', 'packing line', 'recall lot'], ['line', 'product_code', 'oven', 'weight_g', 'silo']],
  ['port', 'Container port', ['berth', 'vessel call', 'crane move', 'yard block', 'reefer plug', 'gate slot'], ['berth_id', 'imo', 'block', 'crane', 'voyage']],
];

const ACTIONS = [
  ['list', 'List {noun}s for a {field}, with pagination.', 'Lists {noun}s recorded in the {title} system. Filter by {f1} and {f2}; results are paginated.'],
  ['get', 'Get one {noun} by ID, with its {f1} and {f2}.', 'Returns the full details of a {noun}, including {f1}, {f2} and audit history.'],
  ['create', 'Create a new {noun} in the {title} system.', 'Creates a {noun}. Requires {f1}; {f2} is optional. Returns the new ID.'],
  ['update', 'Update fields of an existing {noun}.', 'Partially updates a {noun} by ID. Only the given fields ({f1}, {f2}) change.'],
  ['delete', 'Delete a {noun} permanently.', 'Removes a {noun} and its history from the {title} records. Cannot be undone.'],
  ['search', 'Search {noun}s by free text and {f1}.', 'Full-text search over {noun}s in the {title} system, ranked by relevance.'],
  ['archive', 'Archive a {noun} so it no longer shows in lists.', 'Archives a {noun}; archived items keep their {f1} and can be restored.'],
  ['approve', 'Approve a pending {noun}.', 'Marks a {noun} as approved by the current operator and notifies the {f1} owner.'],
  ['export', 'Export {noun}s as CSV.', 'Exports {noun}s matching {f1} to a CSV download link valid for one hour.'],
  ['import', 'Import {noun}s from a CSV upload.', 'Bulk-imports {noun}s; rows with an unknown {f1} are rejected and reported.'],
  ['assign', 'Assign a {noun} to a {f1}.', 'Assigns the {noun} to a {f1} and records who made the change.'],
  ['validate', 'Validate a {noun} against {title} rules.', 'Checks a {noun} for missing {f1} and out-of-range {f2}; returns the problems found.'],
  ['count', 'Count {noun}s grouped by {f1}.', 'Returns the number of {noun}s per {f1} for a period.'],
  ['summarize', 'Summarize {noun} activity for a period.', 'Aggregates {noun} statistics per {f1} over the given dates.'],
  ['schedule', 'Schedule a {noun} for a future date.', 'Plans a {noun} at a date and time for a {f1}; conflicts are reported.'],
  ['sync', 'Sync {noun}s with the {title} back office.', 'Pulls changed {noun}s since the last sync token and pushes local edits.'],
];

/** mulberry32: a tiny, well-known seeded PRNG (deterministic across platforms). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const QUALIFIERS = ['', 'by_date', 'for_site', 'bulk', 'v2', 'history', 'pending', 'draft', 'batch', 'by_region', 'summary', 'legacy'];

/**
 * `count` distractor tools as ToolDocs ({key, server, name, title, description, inputSchema}),
 * spread over servers of `perServer` tools each. Deterministic for a given seed.
 */
export function generateDistractors(count, { seed = 42, perServer = 500, prefix = 'd' } = {}) {
  const rand = rng(seed);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const tools = [];
  const used = new Set();
  let serverNo = 0;
  while (tools.length < count) {
    const [dom, title, nouns, fields] = DOMAINS[serverNo % DOMAINS.length];
    const server = `${prefix}${serverNo}-${dom}`;
    serverNo++;
    for (let i = 0; i < perServer && tools.length < count; i++) {
      const noun = pick(nouns);
      const [verb, short, long] = pick(ACTIONS);
      const qual = pick(QUALIFIERS);
      let name = [verb, noun.replace(/[^a-z]+/g, '_'), qual].filter(Boolean).join('_');
      if (used.has(`${server}/${name}`)) name = `${name}_${i}`;
      used.add(`${server}/${name}`);
      const f1 = pick(fields);
      let f2 = pick(fields);
      if (f2 === f1) f2 = fields[(fields.indexOf(f1) + 1) % fields.length];
      const fill = (s) =>
        s.replaceAll('{noun}', noun).replaceAll('{title}', title).replaceAll('{field}', f1.replace(/_/g, ' ')).replaceAll('{f1}', f1.replace(/_/g, ' ')).replaceAll('{f2}', f2.replace(/_/g, ' '));
      const description = rand() < 0.5 ? fill(short) : `${fill(short)} ${fill(long)}`;
      const properties = {};
      for (const f of [f1, f2, ...(rand() < 0.5 ? ['page', 'page_size'] : [])]) {
        properties[f] = { type: /size|no|number|kg|kwh|psi|year|quantity|tonnage|depth|weight|volume|covers/.test(f) ? 'number' : 'string', description: `${f.replace(/_/g, ' ')} of the ${noun}` };
      }
      tools.push({
        key: `${server}__${name}`,
        server,
        name,
        title: `${verb[0].toUpperCase()}${verb.slice(1)} ${noun}`,
        description,
        inputSchema: { type: 'object', properties, required: [f1] },
      });
    }
  }
  return tools;
}
