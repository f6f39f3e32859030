// A unary gRPC client for a KMS plugin on a unix socket (the only transport upstream
// allows), with the per-call timeout of the provider's configuration and each call's
// latency recorded under upstream's KMS operation metric.
import grpc from '@grpc/grpc-js';
import { recordKmsLatency } from '../../metrics.js';
import { decodeMessage, encodeMessage, type Message, type MessageSpec } from './wire.js';

/** Go's codes.Code names (DeadlineExceeded), which upstream's metric labels carry. */
function goCodeName(code: number): string {
  const name = grpc.status[code] as string | undefined;
  return name ? name.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase()) : 'Unknown';
}

export class KMSCallError extends Error {
  constructor(message: string, readonly code: string) { super(message); }
}

export class PluginClient {
  private readonly client: grpc.Client;

  /** `endpoint` is the configuration's `unix:///path/to/socket`. */
  constructor(endpoint: string, private readonly service: string, private readonly providerName: string, private readonly timeoutMs: number) {
    const path = endpoint.replace(/^unix:\/\//, '');
    this.client = new grpc.Client(`unix://${path}`, grpc.credentials.createInsecure());
  }

  call(method: string, reqSpec: MessageSpec, req: Message, resSpec: MessageSpec): Promise<Message> {
    const path = `/${this.service}/${method}`;
    const start = process.hrtime.bigint();
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(path, (m: Message) => encodeMessage(reqSpec, m), (b: Buffer) => decodeMessage(resSpec, b), req,
        { deadline: Date.now() + this.timeoutMs }, (err, res) => {
          const code = err ? goCodeName(err.code) : 'OK';
          recordKmsLatency(this.providerName, path, Number(process.hrtime.bigint() - start) / 1e9, code);
          if (err) reject(new KMSCallError(`rpc error: code = ${code} desc = ${err.details || err.message}`, code));
          else resolve(res as Message);
        });
    });
  }

  close(): void {
    this.client.close();
  }
}
