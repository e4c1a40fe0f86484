/**
 * The stack's own certificate authority and the certificate its mail sink serves SMTP with (implicit
 * TLS, as hosted functions must use: outgoing ports 25 and 587 are refused there). Made once per data
 * folder with the `openssl` command, for `localhost` and 127.0.0.1 / ::1; the functions' Deno trusts the
 * CA through DENO_CERT (a file holding the machine's own CA file, if one is named, and this CA), so the
 * functions' mail code runs unchanged against the sink and against a real provider.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface StackTls {
  /** PEM of the CA, the server key and the server certificate. */
  ca: string;
  key: string;
  cert: string;
  /** A PEM file for DENO_CERT: the host's CA file (if named) and the stack's CA. */
  denoCertFile: string;
}

function openssl(args: string[], cwd: string) {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(
      `openssl ${args[0]} failed (the local mail sink's TLS certificate is made with openssl): ` +
        (r.error?.message ?? r.stderr.trim()),
    );
}

export function stackTls(dataDir: string, host: NodeJS.ProcessEnv = process.env): StackTls {
  const dir = path.join(dataDir, 'tls');
  const file = (n: string) => path.join(dir, n);
  if (!existsSync(file('server.crt'))) {
    mkdirSync(dir, { recursive: true });
    const days = '3650';
    openssl(
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', days]
        .concat(['-subj', '/CN=ScamCheck local stack CA', '-addext', 'basicConstraints=critical,CA:TRUE'])
        .concat(['-addext', 'keyUsage=critical,keyCertSign,cRLSign']),
      dir,
    );
    openssl(
      ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr'].concat([
        '-subj',
        '/CN=localhost',
      ]),
      dir,
    );
    writeFileSync(
      file('server.ext'),
      'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' +
        'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n',
    );
    openssl(
      ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial'].concat([
        '-out',
        'server.tmp',
        '-days',
        days,
        '-extfile',
        'server.ext',
      ]),
      dir,
    );
    // Written last under its final name: a half-made set is made again at the next start.
    writeFileSync(file('server.crt'), readFileSync(file('server.tmp')));
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
