// The benchmark baseline's handlers: for each measured endpoint, the queries it runs and the bytes it answers, with
// nothing but `pg` underneath. Two hosts run them: raw-server.mjs (bare `node:http`, the yardstick) and, with
// `npm run bench -- --ceiling`, a controller inside the API's own HTTP pipeline (ceiling/ceiling.controller.ts), which
// measures the best any endpoint can do in that pipeline. CommonJS so that both the ES module server and the API's
// esbuild build load the one copy. Each handler takes the pool, the request URL and the authenticated caller, and
// returns { status, body, headers }.
'use strict';

const iso = (d) => (d ? d.toISOString() : undefined);
// Money columns are numeric cedis with six decimals (pg reads them as text: "25.500000"); Number() of that text is the
// double nearest the decimal, as the API's millionths / 1e6 are. The pricing snapshot (jsonb) holds millionths.
const cedis = (text) => Number(text);
const fromMillionths = (m) => m / 1_000_000;
const answer = (status, body, headers = {}) => ({ status, body, headers });

/** Newest first with a keyset cursor, one row more than the page to know whether another follows. */
async function page(pool, table, where, params, limit, after, columns = '*') {
  let cursor = '';
  if (after) {
    const { rows } = await pool.query(`SELECT "createdAt", id FROM ${table} WHERE id = $1`, [after]);
    if (!rows[0]) return { items: [] };
    params.push(rows[0].createdAt, rows[0].id);
    cursor = ` AND ("createdAt", id) < ($${params.length - 1}, $${params.length})`;
  }
  const { rows } = await pool.query(
    `SELECT ${columns} FROM ${table} WHERE ${where}${cursor} ORDER BY "createdAt" DESC, id DESC LIMIT ${limit + 1}`,
    params,
  );
  const more = rows.length > limit;
  const items = more ? rows.slice(0, limit) : rows;
  return { items, next: more ? items[items.length - 1].id : undefined };
}

const link = (url, next) => {
  if (!next) return {};
  url.searchParams.set('after', next);
  return { link: `<${url.pathname}${url.search}>; rel="next"` };
};
const limitOf = (url) => Number(url.searchParams.get('limit') ?? 50);

const station = (s) => ({
  _id: s.id,
  name: s.name,
  transportUnions: s.transportUnions,
  zones: s.zones,
  contactNumber: Number(s.contactNumber),
  digitalAddress: s.digitalAddress,
});
const union = (u) => ({
  _id: u.id,
  status: u.status,
  name: u.name,
  digitalAddress: u.digitalAddress,
  contactNumber: u.contactNumber,
  email: u.email,
  zones: u.zones,
  ...(u.parentUnionId !== null && { transportUnion: u.parentUnionId }),
});

async function vehicles(pool, url) {
  // The columns the public's view shows, as the API reads them (its vehicle summaries).
  const { items, next } = await page(
    pool,
    'vehicles',
    'true',
    [],
    limitOf(url),
    url.searchParams.get('after'),
    'id, "registrationNumber", make, model, color, type, capacity, inspected, approved, "createdAt", "updatedAt", version, "stationLinked", "stationId", "transportUnionId"',
  );
  const ids = (key) => [...new Set(items.map((v) => v[key]).filter(Boolean))];
  const [stations, unions] = await Promise.all([
    pool.query('SELECT * FROM stations WHERE id = ANY($1)', [ids('stationId')]),
    pool.query('SELECT * FROM transport_unions WHERE id = ANY($1)', [ids('transportUnionId')]),
  ]);
  const byId = (rows) => new Map(rows.map((r) => [r.id, r]));
  const s = byId(stations.rows);
  const u = byId(unions.rows);
  // The public view: what a passenger checks.
  const body = items.map((v) => ({
    _id: v.id,
    registrationNumber: v.registrationNumber ?? undefined,
    make: v.make ?? undefined,
    model: v.model ?? undefined,
    color: v.color ?? undefined,
    type: v.type ?? undefined,
    capacity: v.capacity ?? undefined,
    inspected: v.inspected,
    approved: v.approved,
    ...(v.stationLinked && { station: v.stationId && s.has(v.stationId) ? station(s.get(v.stationId)) : null }),
    ...(v.transportUnionId && u.has(v.transportUnionId) && { transportUnion: union(u.get(v.transportUnionId)) }),
    createdAt: iso(v.createdAt),
    updatedAt: iso(v.updatedAt),
    __v: v.version,
  }));
  return answer(200, body, link(url, next));
}

async function drivers(pool, url) {
  // The columns the public's view shows, as the API reads them (its driver summaries).
  const { items, next } = await page(
    pool,
    'drivers',
    'true',
    [],
    limitOf(url),
    url.searchParams.get('after'),
    'id, name, approved, "createdAt", "updatedAt", version, "ratingTotal", "ratingCount"',
  );
  const payload = items.map((d) => ({
    _id: d.id,
    name: d.name,
    approved: d.approved,
    ...(d.ratingCount > 0 && { rating: Math.round((d.ratingTotal / d.ratingCount) * 100) / 100 }),
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    __v: d.version,
  }));
  return answer(200, { status: 200, payload }, link(url, next));
}

const escapeLike = (text) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
function phoneForms(query) {
  const compact = query.replace(/[\s\-().]/g, '');
  const forms = new Set([compact]);
  if (/^0\d+$/.test(compact)) forms.add(`+233${compact.slice(1)}`);
  if (/^\+?233\d+$/.test(compact)) forms.add(`0${compact.replace(/^\+?233/, '')}`);
  return [...forms];
}

async function ownerSearch(pool, url) {
  const query = url.searchParams.get('query').trim();
  const params = [`%${escapeLike(query)}%`, `%${escapeLike(query.toLowerCase())}%`];
  const phones = phoneForms(query.toLowerCase()).map((p) => {
    params.push(`%${escapeLike(p)}%`);
    return `phone LIKE $${params.length}`;
  });
  const where = `(name ILIKE $1 OR email LIKE $2 OR ${phones.join(' OR ')})`;
  const { items, next } = await page(
    pool,
    'vehicle_owners',
    where,
    params,
    limitOf(url),
    url.searchParams.get('after'),
  );
  const body = items.map((o) => ({
    _id: o.id,
    name: o.name,
    phone: o.phone,
    email: o.email,
    idType: o.idType,
    idNumber: o.idNumber,
    verified: o.verified,
    language: o.language,
    assembly: o.assemblyId,
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
    __v: o.version,
  }));
  return answer(200, body, link(url, next));
}

/** A date-only range in Africa/Accra (UTC+0 all year): [start 00:00, the day after end 00:00). */
function dayRange(start, end) {
  const from = new Date(`${start}T00:00:00.000Z`);
  const to = new Date(new Date(`${end}T00:00:00.000Z`).getTime() + 86_400_000);
  return [from, to];
}

async function trips(pool, url) {
  const [from, to] = dayRange(url.searchParams.get('startDate'), url.searchParams.get('endDate'));
  const { items, next } = await page(
    pool,
    'trips',
    '"createdAt" >= $1 AND "createdAt" < $2',
    [from, to],
    limitOf(url),
    url.searchParams.get('after'),
  );
  const services = await pool.query('SELECT * FROM trip_services WHERE "tripId" = ANY($1)', [items.map((t) => t.id)]);
  const service = new Map(services.rows.map((s) => [s.tripId, s]));
  const body = items.map((t) => {
    const s = service.get(t.id);
    return {
      _id: t.id,
      service: {
        _id: s.id,
        serviceID: s.serviceID,
        type: s.type,
        driver: {
          _id: s.driver.id,
          name: s.driver.name,
          phone: s.driver.phone,
          email: s.driver.email,
          walletAccount: s.driver.walletAccount,
          rating: s.driver.rating,
        },
        vehicle: {
          _id: s.vehicle.id,
          registrationNumber: s.vehicle.registrationNumber,
          make: s.vehicle.make,
          model: s.vehicle.model,
          capacity: s.vehicle.capacity,
          type: s.vehicle.type,
        },
        pricing: {
          _id: s.pricing.id,
          type: s.pricing.type,
          pricePerKm: fromMillionths(s.pricing.pricePerKm),
          pricePerMinute: fromMillionths(s.pricing.pricePerMinute),
        },
        passengers: s.passengers,
        amount: cedis(s.amount),
        ended: s.ended,
      },
      ticketNumber: t.ticketNumber,
      estimatedPrice: cedis(t.estimatedPrice),
      estimatedDistance: t.estimatedDistance,
      finalPrice: t.finalPrice === null ? undefined : cedis(t.finalPrice),
      cashPrice: t.cashPrice === null ? undefined : cedis(t.cashPrice),
      charges: cedis(t.charges),
      settledAmount: cedis(t.settledAmount),
      discount: cedis(t.discount),
      settled: t.settled,
      finalDistance: t.finalDistance ?? undefined,
      refundAmount: cedis(t.refundAmount),
      refunded: t.refunded,
      paymentMethod: t.paymentMethod ?? undefined,
      user: t.user,
      pickupLocation: t.pickupLocation,
      serviceDestination: t.serviceDestination,
      droppedOffLocation: t.droppedOffLocation ?? undefined,
      checkedOut: t.checkedOut,
      checkOutTime: iso(t.checkOutTime),
      createdAt: iso(t.createdAt),
      updatedAt: iso(t.updatedAt),
      __v: t.version,
    };
  });
  return answer(200, body, link(url, next));
}

async function checkTransaction(pool, url, who) {
  const { rows } = await pool.query('SELECT * FROM transactions WHERE "merchantId" = $1 AND reference = $2', [
    who.principalId,
    url.searchParams.get('reference'),
  ]);
  const t = rows[0];
  if (!t) return answer(404, { code: 'NOT_FOUND' });
  return answer(200, {
    _id: t.id,
    amount: cedis(t.amount),
    fees: t.fees === null ? undefined : cedis(t.fees),
    status: t.status,
    requestType: t.requestType,
    merchant: t.merchantId,
    description: t.description,
    reference: t.reference,
    callBackUrl: t.callBackUrl,
    customerEmail: t.customerEmail,
    customerName: t.customerName,
    customerPhone: t.customerPhone,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
    __v: t.version,
    requestInfo: t.requestInfo ?? undefined,
    callBackInfo: t.callBackInfo ?? undefined,
    callBackTime: iso(t.callBackTime),
  });
}

/** Path → who may call it (undefined: anyone) and its handler. */
const ROUTES = {
  '/vehicles/all': { handle: vehicles },
  '/drivers/all': { handle: drivers },
  '/vehicles/owner/search': { role: 'admin', handle: ownerSearch },
  '/trips/intracity/date': { role: 'admin', handle: trips },
  '/payment/check_transaction': { role: 'merchant', handle: checkTransaction },
};

module.exports = { ROUTES };
