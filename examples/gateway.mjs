// Built-in model gateway, chained to your company's external gateway: a model entry built by the rules of
// spec 2.6, added at runtime, listed and probed through both gateways; the proxy configuration for the
// installer as YAML.
//
//   node examples/gateway.mjs
//
// Environment (GATEWAY_URL and MASTER_KEY, or neither = a simulated platform on loopback):
//   GATEWAY_URL              the built-in gateway, e.g. http://localhost:4000
//   MASTER_KEY               its master key
//   EXTERNAL_GATEWAY_URL     the external gateway, as the built-in one reaches it (for the new entry)
//   EXTERNAL_GATEWAY_KEY_ENV the variable holding the external gateway's key in the gateway pod
//   EXTERNAL_GATEWAY_MODEL   a model name the external gateway serves
//   EXAMPLES_WRITE=1         add the model `sdk-example`, probe it (one small LLM call) and delete it again
import {
  buildProxyConfig,
  diagnoseGatewayError,
  GatewayAdminClient,
  gatewayModelEntry,
} from 'agent-platform-sdk';
import { connect, skipped, step } from './_platform.mjs';

const platform = await connect(['GATEWAY_URL', 'MASTER_KEY']);
try {
  const { env } = platform;
  const gateway = new GatewayAdminClient({ baseUrl: env.GATEWAY_URL, masterKey: env.MASTER_KEY });

  step('Models the gateway serves');
  console.log(`  ${(await gateway.listModels()).map((model) => model.id).join(', ') || '(none)'}`);

  const externalUrl = env.EXTERNAL_GATEWAY_URL ?? 'https://gw.example.com';
  const entry = gatewayModelEntry(
    {
      modelName: 'sdk-example',
      upstreamModel: env.EXTERNAL_GATEWAY_MODEL ?? 'claude-sonnet-4-5-20250929',
      gatewayKind: 'same-kind',
      apiBase: externalUrl,
      apiKey: { env: env.EXTERNAL_GATEWAY_KEY_ENV ?? 'EXTERNAL_GATEWAY_KEY' },
    },
    { onNote: (note) => console.log(`  note (${note.code}): ${note.message}`) },
  );
  step('The model entry (spec 2.6: prefix, /v1 rule, key from the pod environment)');
  console.log(`  ${JSON.stringify(entry)}`);

  step('As proxy configuration for the installer (lasting, unlike a model added at runtime)');
  const { yaml } = buildProxyConfig({ entries: [entry], forwardClientHeaders: true });
  for (const line of yaml.trimEnd().split('\n')) console.log(`  ${line}`);

  if (!env.EXTERNAL_GATEWAY_URL || !platform.writes) {
    skipped('adding, probing and deleting the model sdk-example (needs EXTERNAL_GATEWAY_URL too)');
  } else {
    step('Add it at runtime, list, probe through both gateways, delete');
    const added = await gateway.addModel(entry);
    try {
      console.log(`  models: ${(await gateway.listModels()).map((model) => model.id).join(', ')}`);
      const probe = await gateway.probeModel('sdk-example').catch((error) => error);
      if (probe instanceof Error) {
        const diagnosis = diagnoseGatewayError(probe);
        if (!diagnosis) throw probe; // not an answer of a gateway (e.g. a connection error)
        console.log(
          `  probe failed at the ${diagnosis.origin} gateway (${diagnosis.failure}): ${diagnosis.hint}`,
        );
      } else {
        console.log(`  probe answered by ${probe.model}`);
      }
    } finally {
      if (added.id) await gateway.deleteModel(added.id);
      console.log('  deleted sdk-example');
    }
  }
} finally {
  await platform.close();
}
