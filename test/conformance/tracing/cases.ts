// Environment cases of the tracing differential test (docs/tracing.md, "Where traces really go"). Names are the
// SDK's neutral ones (`TRACING_*`); the test renames them for the real SDK. `{{HTTP}}` and `{{GRPC}}` are the
// ports of the loopback receivers; cases whose destination is not on loopback are compared on the exporter the
// real SDK builds, without sending.
export interface TraceCase {
  name: string;
  env: Record<string, string>;
  /** Contents of a `.env` file in the working directory. */
  dotenv?: string;
}

const LO = 'http://127.0.0.1';
const bundledHttp = { TRACING_BASE_URL: LO, TRACING_FORCE_HTTP: 'true', TRACING_HTTP_PORT: '{{HTTP}}' };
const bundledGrpc = { TRACING_BASE_URL: LO, TRACING_GRPC_PORT: '{{GRPC}}' };
const httpTraces = `${LO}:{{HTTP}}/v1/traces`;
const grpcUrl = `${LO}:{{GRPC}}`;

export const TRACE_CASES: TraceCase[] = [
  { name: 'nothing set', env: {} },
  { name: 'A bundled defaults (HTTP, port, key)', env: { ...bundledHttp, TRACING_PROJECT_API_KEY: 'k-1' } },
  { name: 'A bundled over gRPC', env: { ...bundledGrpc, TRACING_PROJECT_API_KEY: 'k-1' } },
  {
    name: 'A2 base URL with a port: the port is ignored',
    env: { ...bundledGrpc, TRACING_BASE_URL: `${LO}:9999`, TRACING_PROJECT_API_KEY: 'k-1' },
  },
  {
    name: 'A2 base URL with a port, HTTP',
    env: { ...bundledHttp, TRACING_BASE_URL: `${LO}:9999/`, TRACING_PROJECT_API_KEY: 'k-1' },
  },
  {
    name: 'bundled HTTP without a port: 443',
    env: { TRACING_BASE_URL: LO, TRACING_FORCE_HTTP: 'true', TRACING_PROJECT_API_KEY: 'k-1' },
  },
  {
    name: 'bundled gRPC without a port: 8443',
    env: { TRACING_BASE_URL: 'http://tracing.internal', TRACING_PROJECT_API_KEY: 'k-1' },
  },
  {
    name: 'schemeless base URL gets https://',
    env: { ...bundledHttp, TRACING_BASE_URL: '127.0.0.1', TRACING_PROJECT_API_KEY: 'k-1' },
  },
  {
    name: 'base URL with a path keeps it before the port',
    env: { ...bundledHttp, TRACING_BASE_URL: `${LO}/lmnr/`, TRACING_PROJECT_API_KEY: 'k-1' },
  },
  { name: 'B base URL only: off', env: { TRACING_BASE_URL: LO } },
  {
    name: 'B2 base URL, no key, OTLP endpoint and headers: headers go to the bundled backend',
    env: {
      ...bundledGrpc,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl,
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=blue',
    },
  },
  {
    name: 'B2 with TRACING_FORCE_HTTP: port 443, TRACING_HTTP_PORT not read',
    env: {
      ...bundledHttp,
      OTEL_EXPORTER_OTLP_ENDPOINT: `${LO}:{{HTTP}}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    },
  },
  {
    name: 'C key and OTLP endpoint, no base: the vendor cloud',
    env: { TRACING_PROJECT_API_KEY: 'k-1', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl },
  },
  {
    name: 'C key only, HTTP: the vendor cloud on 443',
    env: { TRACING_PROJECT_API_KEY: 'k-1', TRACING_FORCE_HTTP: 'yes' },
  },
  {
    name: 'C key and a port, no base',
    env: { TRACING_PROJECT_API_KEY: 'k-1', TRACING_FORCE_HTTP: 'on', TRACING_HTTP_PORT: '8000' },
  },
  {
    name: 'D1 traces endpoint over HTTP with Basic auth',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${LO}:{{HTTP}}/api/public/otel/v1/traces`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'Authorization=Basic%20YWJjOmRlZg==',
    },
  },
  { name: 'D2 endpoint without protocol: gRPC', env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl } },
  {
    name: 'D2 gRPC endpoint with a path: path dropped',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${grpcUrl}/v1/traces` },
  },
  {
    name: 'D3 upper-case protocol is not HTTP',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'HTTP/PROTOBUF' },
  },
  {
    name: 'D4 OTEL_EXPORTER=otlp_http',
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${LO}:{{HTTP}}`, OTEL_EXPORTER: 'otlp_http' },
  },
  {
    name: 'D5 generic endpoint with a path is used as is',
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${LO}:{{HTTP}}/otlp`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
  },
  {
    name: 'generic endpoint without a path gets /v1/traces',
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${LO}:{{HTTP}}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
  },
  {
    name: 'endpoint with a query and no path',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${LO}:{{HTTP}}/?tenant=a`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    },
  },
  {
    name: 'D6 http/json sends protobuf; timeout in seconds; OTEL_TIMEOUT unused',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpTraces,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '5',
      OTEL_TIMEOUT: '7',
    },
  },
  {
    name: 'generic timeout over HTTP',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpTraces,
      OTEL_EXPORTER_PROTOCOL: 'x',
      OTEL_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TIMEOUT: '3',
    },
  },
  {
    name: 'gRPC traces timeout',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl, OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '4' },
  },
  {
    name: 'gRPC generic timeout',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl, OTEL_EXPORTER_OTLP_TIMEOUT: '2.5' },
  },
  {
    name: 'D7 schemeless gRPC endpoint: TLS',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '127.0.0.1:{{GRPC}}',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'Authorization=Bearer%20t',
    },
  },
  {
    name: 'gRPC https endpoint: TLS',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://127.0.0.1:{{GRPC}}' },
  },
  {
    name: 'schemeless gRPC with INSECURE=true',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '127.0.0.1:{{GRPC}}', OTEL_EXPORTER_OTLP_INSECURE: 'true' },
  },
  {
    name: 'OTEL_ENDPOINT and OTEL_PROTOCOL',
    env: { OTEL_ENDPOINT: `${LO}:{{HTTP}}`, OTEL_PROTOCOL: 'http/protobuf' },
  },
  {
    name: 'traces endpoint wins over the generic one',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/x' },
  },
  {
    name: 'traces headers win over generic headers',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl,
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-a=1',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-b=2',
    },
  },
  {
    name: 'headers: empty value kept',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl, OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'a=,b=1' },
  },
  {
    name: 'headers: empty key',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpTraces,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: '=v,x-k=1',
    },
  },
  {
    name: 'headers: key not decoded',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl, OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'k%20x=v' },
  },
  {
    name: 'headers: bad percent kept',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl, OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'k=%zz' },
  },
  {
    name: 'headers: last duplicate wins',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl,
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'k=1,k=2,novalue',
    },
  },
  {
    name: 'headers: spaces around key and value',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl, OTEL_EXPORTER_OTLP_TRACES_HEADERS: ' x-k = v w ' },
  },
  {
    name: 'headers: upper-case name over gRPC',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl, OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'X-Team=blue' },
  },
  {
    name: 'key wins over OTLP headers at the bundled backend',
    env: { ...bundledHttp, TRACING_PROJECT_API_KEY: 'k-1', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-a=1' },
  },
  { name: 'whitespace-only key counts as set', env: { ...bundledHttp, TRACING_PROJECT_API_KEY: ' ' } },
  {
    name: 'whitespace around a port',
    env: { ...bundledHttp, TRACING_HTTP_PORT: ' {{HTTP}} ', TRACING_PROJECT_API_KEY: 'k-1' },
  },
  {
    name: 'whitespace around TRACING_FORCE_HTTP',
    env: { ...bundledGrpc, TRACING_FORCE_HTTP: ' true', TRACING_PROJECT_API_KEY: 'k-1' },
  },
  {
    name: 'TRACING_FORCE_HTTP=TRUE',
    env: { ...bundledHttp, TRACING_FORCE_HTTP: 'TRUE', TRACING_PROJECT_API_KEY: 'k-1' },
  },
  {
    name: 'invalid port falls back to 443',
    env: { ...bundledHttp, TRACING_HTTP_PORT: 'abc', TRACING_PROJECT_API_KEY: 'k-1' },
  },
  { name: 'whitespace around an endpoint', env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ` ${grpcUrl} ` } },
  { name: 'whitespace-only endpoint', env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ' ' } },
  {
    name: 'empty key and an endpoint',
    env: { TRACING_PROJECT_API_KEY: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpcUrl },
  },
  { name: 'headers without an endpoint: off', env: { OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-a=1' } },
  {
    name: 'compression variable ignored: always gzip',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpTraces,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_COMPRESSION: 'none',
    },
  },
  {
    name: 'empty traces timeout',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpTraces,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '',
    },
  },
  {
    name: '.env: key and base only in the file',
    env: {},
    dotenv: `TRACING_BASE_URL=${LO}\nTRACING_FORCE_HTTP=true\nTRACING_HTTP_PORT={{HTTP}}\nTRACING_PROJECT_API_KEY=k-env\n`,
  },
  {
    name: '.env: an empty variable falls back to the file',
    env: { ...bundledHttp, TRACING_PROJECT_API_KEY: '' },
    dotenv: 'TRACING_PROJECT_API_KEY=k-env\n',
  },
  {
    name: '.env: the process value wins',
    env: { ...bundledHttp, TRACING_PROJECT_API_KEY: 'k-proc' },
    dotenv: 'TRACING_PROJECT_API_KEY=k-env\n',
  },
  {
    name: '.env: OTLP endpoint in the file',
    env: {},
    dotenv: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${grpcUrl}\nOTEL_EXPORTER_OTLP_TRACES_HEADERS=x-a=1\n`,
  },
];
