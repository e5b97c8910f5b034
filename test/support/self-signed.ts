import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A self-signed certificate for loopback HTTPS servers, made with node:crypto alone (Node has no
 * certificate generator, and the tests should not depend on an `openssl` binary). It is a minimal
 * DER encoding of an X.509 v3 certificate: P-256 key, ECDSA-SHA256, the names as subjectAltName
 * dNSName entries, and CA:TRUE so that a client may trust it directly through its `ca` option.
 */
export interface SelfSigned {
  key: string;
  cert: string;
}

function length(size: number): Buffer {
  if (size < 0x80) return Buffer.from([size]);
  const bytes: number[] = [];
  for (let rest = size; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...content: Buffer[]) => tlv(0x30, ...content);

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const groups: number[] = [];
    for (let value = arc; ; value = Math.floor(value / 128)) {
      groups.unshift((value % 128) | (groups.length ? 0x80 : 0));
      if (value < 128) break;
    }
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return tlv(0x17, Buffer.from(`${text}Z`, 'ascii'));
}

function name(commonName: string): Buffer {
  return sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
}

export function makeSelfSigned(hostnames: readonly string[], now = new Date()): SelfSigned {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));
  const serial = randomBytes(12);
  // DER INTEGER: positive (top bit clear) and minimal (no leading zero byte, which a random first
  // byte of 0 with a second byte under 0x80 would be: 'illegal padding', one certificate in 256).
  serial[0] = ((serial[0] ?? 0) & 0x3f) | 0x40;
  const subject = name(hostnames[0] ?? 'localhost');
  const subjectAltName = sequence(
    oid('2.5.29.17'),
    tlv(0x04, sequence(...hostnames.map((host) => tlv(0x82, Buffer.from(host, 'ascii'))))),
  );
  const basicConstraints = sequence(
    oid('2.5.29.19'),
    tlv(0x01, Buffer.from([0xff])),
    tlv(0x04, sequence(tlv(0x01, Buffer.from([0xff])))),
  );
  const subjectKeyId = sequence(
    oid('2.5.29.14'),
    tlv(0x04, tlv(0x04, createHash('sha1').update(spki).digest())),
  );
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    ecdsaWithSha256,
    subject,
    sequence(utcTime(new Date(now.getTime() - 60_000)), utcTime(new Date(now.getTime() + 86_400_000))),
    subject,
    spki,
    tlv(0xa3, sequence(subjectAltName, basicConstraints, subjectKeyId)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, ecdsaWithSha256, tlv(0x03, Buffer.from([0]), signature));
  const base64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${base64.trimEnd()}\n-----END CERTIFICATE-----\n`,
  };
}
