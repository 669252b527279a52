/**
 * Decoding of OTLP/HTTP JSON trace exports (`ExportTraceServiceRequest`): `resourceSpans` → `scopeSpans` →
 * `spans`; ids in hex (not base64), int64 as decimal strings (numbers accepted), enums as integers,
 * attributes as typed `AnyValue`s. Unknown fields are ignored, as receivers do.
 */
import { OtlpDecodeError } from './errors.js';

export type AttributeValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | AttributeValue[]
  | { [key: string]: AttributeValue };
export type Attributes = Record<string, AttributeValue>;

export interface DecodedSpan {
  /** Lowercase hex, 32 digits. */
  traceId: string;
  /** Lowercase hex, 16 digits. */
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP numbering: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** Nanoseconds since the epoch (milliseconds: `Number(t / 1_000_000n)`). */
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Attributes;
  /** Status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  events: { name: string; timeUnixNano: bigint; attributes: Attributes }[];
  resource: Attributes;
  scope: { name: string; version?: string };
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? value : []);

function int(value: unknown, path: string): bigint {
  try {
    if (typeof value === 'string' || Number.isInteger(value ?? 0)) return BigInt((value as string) ?? 0);
  } catch {}
  throw new OtlpDecodeError(path, 'not an integer');
}

function hexId(value: unknown, digits: number, path: string): string {
  if (typeof value === 'string' && value.length === digits && /^[\da-f]+$/i.test(value))
    return value.toLowerCase();
  throw new OtlpDecodeError(path, `not ${digits} hex digits`);
}

function anyValue(value: unknown, path: string): AttributeValue {
  const [key, v] = Object.entries(value ?? {})[0] ?? [];
  if (key === 'intValue') {
    const n = int(v, path);
    return Number.isSafeInteger(Number(n)) ? Number(n) : n;
  }
  if (key === 'arrayValue') return list((v as Json)?.values).map((item) => anyValue(item, path));
  if (key === 'kvlistValue') return attributes((v as Json)?.values, path);
  // `bytesValue` stays its base64 text.
  return key === 'doubleValue' ? Number(v) : key === 'boolValue' ? v === true : key ? String(v) : null;
}

function attributes(value: unknown, path: string): Attributes {
  const out: Attributes = {};
  for (const kv of list(value)) out[kv.key as string] = anyValue(kv.value, `${path}.${kv.key}`);
  return out;
}

/**
 * Decodes one export request (object or JSON text) or an array of them into flat spans. Errors name the span
 * by its position in the result (`spans[3].traceId`).
 */
/** JSON text is parsed; text that is not JSON is an `OtlpDecodeError` like any other bad input. */
function fromText(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    throw new OtlpDecodeError('input', 'not JSON');
  }
}

export function decodeOtlpTraces(input: unknown): DecodedSpan[] {
  const spans: DecodedSpan[] = [];
  for (const request of list([fromText(input)].flat())) {
    for (const rs of list(request.resourceSpans)) {
      const resource = attributes((rs.resource as Json)?.attributes, 'resource');
      for (const ss of list(rs.scopeSpans)) {
        const { name = '', version } = (ss.scope ?? {}) as { name?: string; version?: string };
        const scope = { name, version };
        for (const s of list(ss.spans)) {
          const p = `spans[${spans.length}].`;
          const start = int(s.startTimeUnixNano, `${p}startTimeUnixNano`);
          const end = int(s.endTimeUnixNano, `${p}endTimeUnixNano`);
          const status = (s.status ?? {}) as Json;
          spans.push({
            traceId: hexId(s.traceId, 32, `${p}traceId`),
            spanId: hexId(s.spanId, 16, `${p}spanId`),
            parentSpanId: s.parentSpanId ? hexId(s.parentSpanId, 16, `${p}parentSpanId`) : undefined,
            name: (s.name as string) ?? '',
            kind: Number(s.kind ?? 0),
            startTimeUnixNano: start,
            endTimeUnixNano: end,
            attributes: attributes(s.attributes, `${p}attributes`),
            status: { code: Number(status.code ?? 0), message: (status.message as string) || undefined },
            events: list(s.events).map((e) => ({
              name: (e.name as string) ?? '',
              timeUnixNano: int(e.timeUnixNano, `${p}events`),
              attributes: attributes(e.attributes, `${p}events`),
            })),
            resource,
            scope,
          });
        }
      }
    }
  }
  return spans;
}
