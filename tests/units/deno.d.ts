/** The part of Deno's global namespace the functions' modules use, for tsc (Deno itself checks them with `deno check`). */
declare namespace Deno {
  const env: { get(name: string): string | undefined };
  function readFile(path: string | URL): Promise<Uint8Array>;
  function serve(handler: (req: Request) => Response | Promise<Response>): unknown;
  interface ResolveDnsOptions {
    nameServer?: { ipAddr: string; port?: number };
  }
  function resolveDns(
    query: string,
    recordType: 'A' | 'AAAA',
    options?: ResolveDnsOptions,
  ): Promise<string[]>;
  function resolveDns(query: string, recordType: 'TXT', options?: ResolveDnsOptions): Promise<string[][]>;
  namespace errors {
    class NotFound extends Error {}
  }
}
