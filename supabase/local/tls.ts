/**
 * The stack's own certificate authority and the certificate its mail sink serves SMTP with (implicit
 * TLS, as hosted functions must use: outgoing ports 25 and 587 are refused there). Made once per data
 * folder, for `localhost` and 127.0.0.1 / ::1: keys by Node's crypto, certificates by node-forge (no
 * `openssl` command needed). The functions' Deno trusts the CA through DENO_CERT (a file holding the
 * machine's own CA file, if one is named, and this CA), so the functions' mail code runs unchanged
 * against the sink and against a real provider.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';

export interface StackTls {
  /** PEM of the CA, the server key and the server certificate. */
  ca: string;
  key: string;
  cert: string;
  /** A PEM file for DENO_CERT: the host's CA file (if named) and the stack's CA. */
  denoCertFile: string;
}

const YEARS = 10;

/** An RSA key pair (Node's crypto: fast, unlike forge's own JavaScript key generation) as forge keys. */
function keyPair() {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { pem: privateKey, key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

/** A certificate of `subjectCN` for `publicKey`, signed by `issuer` (itself when absent), SHA-256. */
function certificate(o: {
  subjectCN: string;
  publicKey: forge.pki.PublicKey;
  signingKey: forge.pki.rsa.PrivateKey;
  issuer?: forge.pki.Certificate;
  extensions: object[];
}): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = o.publicKey;
  // A positive serial of 16 random bytes (the leading 0 keeps DER's INTEGER positive).
  cert.serialNumber = '00' + randomBytes(16).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + YEARS * 365 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: o.subjectCN }]);
  cert.setIssuer((o.issuer ?? cert).subject.attributes);
  cert.setExtensions(o.extensions);
  cert.sign(o.signingKey, forge.md.sha256.create());
  return cert;
}

function makeCertificates(dir: string) {
  const ca = keyPair();
  const caCert = certificate({
    subjectCN: 'Local Supabase stack CA',
    publicKey: ca.publicKey,
    signingKey: ca.key,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ],
  });
  const server = keyPair();
  const serverCert = certificate({
    subjectCN: 'localhost',
    publicKey: server.publicKey,
    signingKey: ca.key,
    issuer: caCert,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
      { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
    ],
  });
  writeFileSync(path.join(dir, 'ca.key'), ca.pem, { mode: 0o600 });
  writeFileSync(path.join(dir, 'ca.crt'), forge.pki.certificateToPem(caCert));
  writeFileSync(path.join(dir, 'server.key'), server.pem, { mode: 0o600 });
  // Written last: a half-made set is made again at the next start.
  writeFileSync(path.join(dir, 'server.crt'), forge.pki.certificateToPem(serverCert));
}

export function stackTls(dataDir: string, host: NodeJS.ProcessEnv = process.env): StackTls {
  const dir = path.join(dataDir, 'tls');
  const file = (n: string) => path.join(dir, n);
  if (!existsSync(file('server.crt'))) {
    mkdirSync(dir, { recursive: true });
    makeCertificates(dir);
  }
  const ca = readFileSync(file('ca.crt'), 'utf8');
  const hostCa = host.DENO_CERT || host.NODE_EXTRA_CA_CERTS || host.SSL_CERT_FILE;
  const denoCertFile = file('deno-cert.pem');
  writeFileSync(
    denoCertFile,
    (hostCa && existsSync(hostCa) ? readFileSync(hostCa, 'utf8').trimEnd() + '\n' : '') + ca,
  );
  return {
    ca,
    key: readFileSync(file('server.key'), 'utf8'),
    cert: readFileSync(file('server.crt'), 'utf8'),
    denoCertFile,
  };
}
