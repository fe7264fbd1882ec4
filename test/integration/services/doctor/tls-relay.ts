/**
 * A TLS front on loopback with a certificate of our choosing, relaying the
 * decrypted bytes to the simulator: a Proxmox whose certificate does not
 * list the address the admin typed (the seeds' 192.168.2.8 trap).
 */
import type { AddressInfo } from 'node:net';
import { connect, createServer, type TLSSocket } from 'node:tls';
import { createCa, createLeaf, type GeneratedCa, type GeneratedCertificate, type LeafOptions } from '../../../../main/tls/certificates';

export interface TlsRelay {
  url: string;
  ca: GeneratedCa;
  leaf: GeneratedCertificate;
  close(): Promise<void>;
}

export async function startTlsRelay(upstreamPort: number, leafOptions: LeafOptions): Promise<TlsRelay> {
  const ca = await createCa('Relay Test CA');
  const leaf = await createLeaf(ca, leafOptions);
  const sockets = new Set<TLSSocket>();
  const server = createServer({ key: leaf.keyPem, cert: leaf.certPem }, (downstream) => {
    // The relay's own hop to the simulator is test plumbing on loopback; the doctor checks the relay's certificate.
    const upstream = connect({ host: '127.0.0.1', port: upstreamPort, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    for (const s of [downstream, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    downstream.pipe(upstream).pipe(downstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    ca,
    leaf,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
