// A MaxMind DB (.mmdb) file made in the test, so the GeoIP place of a session is tested on a real file without
// downloading a database: IPv4 networks mapped to records, encoded per the MaxMind DB format 2.0 (24-bit records).

/** A value a record may hold: strings, unsigned integers, arrays and maps. */
export type MmdbValue = string | number | MmdbValue[] | { [key: string]: MmdbValue };

function control(type: number, size: number): Buffer {
  const head: number[] = [];
  let extra: number[] = [];
  let bits: number;
  if (size < 29) bits = size;
  else if (size < 285) [bits, extra] = [29, [size - 29]];
  else [bits, extra] = [30, [(size - 285) >> 8, (size - 285) & 255]];
  if (type <= 7) head.push((type << 5) | bits);
  else head.push(bits, type - 7);
  return Buffer.from([...head, ...extra]);
}

function encode(v: MmdbValue): Buffer {
  if (typeof v === 'string') {
    const bytes = Buffer.from(v, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof v === 'number') {
    const bytes: number[] = [];
    for (let n = v; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
    return Buffer.concat([control(6, bytes.length), Buffer.from(bytes)]);
  }
  if (Array.isArray(v)) return Buffer.concat([control(11, v.length), ...v.map(encode)]);
  const entries = Object.entries(v);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, x]) => [encode(k), encode(x)])]);
}

/** The bytes of an IPv4 City-style database holding `networks` (`'203.0.113.0/24'` → record); they must not nest. */
export function mmdbFile(networks: Record<string, MmdbValue>): Buffer {
  type Rec = number | { data: number } | null;
  const nodes: [Rec, Rec][] = [[null, null]];
  const data: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  for (const [cidr, value] of Object.entries(networks)) {
    const [ip, len] = cidr.split('/');
    const addr = ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
    const bits = Array.from({ length: Number(len) }, (_, i) => Math.floor(addr / 2 ** (31 - i)) % 2);
    const enc = encode(value);
    offsets.push(size);
    data.push(enc);
    size += enc.length;
    let node = 0;
    for (const [i, bit] of bits.entries()) {
      if (i === bits.length - 1) {
        nodes[node][bit] = { data: offsets.length - 1 };
        break;
      }
      let next = nodes[node][bit];
      if (typeof next !== 'number') {
        nodes.push([null, null]);
        next = nodes.length - 1;
        nodes[node][bit] = next;
      }
      node = next;
    }
  }
  const count = nodes.length;
  const value = (r: Rec) => (r === null ? count : typeof r === 'number' ? r : count + 16 + offsets[r.data]);
  const tree = Buffer.alloc(count * 6);
  nodes.forEach(([l, r], i) => {
    tree.writeUIntBE(value(l), i * 6, 3);
    tree.writeUIntBE(value(r), i * 6 + 3, 3);
  });
  const metadata = encode({
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_750_000_000,
    database_type: 'GeoLite2-City',
    description: { en: 'test database' },
    ip_version: 4,
    languages: ['en', 'zh-CN'],
    node_count: count,
    record_size: 24,
  });
  const marker = Buffer.from('ABCDEF4D61784D696E642E636F6D', 'hex');
  return Buffer.concat([tree, Buffer.alloc(16), ...data, marker, metadata]);
}
