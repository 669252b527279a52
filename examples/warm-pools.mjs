// Runtime API, warm sandbox pools: the PBKDF2 admin login, the effective set of configurations, a template
// derived from the installer's entry, a saved pool, and the checks that catch layouts that break a cluster.
//
//   node examples/warm-pools.mjs
//
// Environment (RUNTIME_API_URL and ADMIN_PASSWORD, or neither = a simulated platform on loopback):
//   RUNTIME_API_URL    base URL of the runtime API, e.g. https://runtime-api.example.com
//   ADMIN_PASSWORD     the admin password (the client logs in with it; it is never sent)
//   API_KEY            optional: a regular API key for reads; without it the key named `default` is used
//   EXAMPLES_WRITE=1   save the pool `sdk-example` (a warm pod starts) and delete it again
import { isAdminLoginError, RuntimeAdminClient } from 'agent-platform-sdk';
import { connect, skipped, step } from './_platform.mjs';

const platform = await connect(['RUNTIME_API_URL', 'ADMIN_PASSWORD']);
try {
  const { env } = platform;
  // With `env: false` the client reads nothing from process.env: every option is explicit here.
  const runtime = new RuntimeAdminClient({
    baseUrl: env.RUNTIME_API_URL,
    adminPassword: env.ADMIN_PASSWORD,
    apiKey: env.API_KEY,
    env: false,
  });

  step('Admin login (challenge, PBKDF2, JWT)');
  await runtime.login();
  console.log('  logged in; the client keeps the JWT and renews it before it expires');
  const wrong = new RuntimeAdminClient({
    baseUrl: env.RUNTIME_API_URL,
    adminPassword: 'not-the-password',
    env: false,
  });
  const refused = await wrong.login().catch((error) => error);
  console.log(
    `  a wrong password: ${isAdminLoginError(refused) ? `AdminLoginError (reason ${refused.reason})` : refused}`,
  );

  step('The effective set of warm-runtime configurations');
  const show = (configs) => {
    for (const c of configs)
      console.log(
        `  ${c.name.padEnd(14)} ${String(c.source).padEnd(4)} ${c.image} count ${c.count ?? 'default'}`,
      );
  };
  show(await runtime.listWarmRuntimeConfigs());

  step('A template from v1_current with another image');
  const body = await runtime.template('v1_current', { image: 'ghcr.io/acme/sdk-example:1.0', count: 1 });
  console.log(`  ${JSON.stringify({ image: body.image, count: body.count, working_dir: body.working_dir })}`);

  if (platform.writes) {
    step('Save it as sdk-example, then delete it');
    const saved = await runtime.saveWarmRuntimeConfig('sdk-example', body, { rejectSharedImage: true });
    try {
      console.log(`  saved ${saved.name}; the set now:`);
      show(await runtime.listWarmRuntimeConfigs());
    } finally {
      const { message } = await runtime.deleteWarmRuntimeConfig('sdk-example');
      console.log(`  ${message}`);
    }
  } else {
    skipped('saving and deleting the pool sdk-example');
  }

  step('Checks: shared images, ephemeral storage on a 500Gi node, the after-upgrade checklist');
  const checks = await runtime.checkPools({ nodeCapacity: '500Gi' });
  console.log(`  shared images: ${checks.sharedImages.length}`);
  console.log(`  storage: ${checks.storage?.message}`);
  for (const item of checks.upgrade)
    console.log(`  after an upgrade: ${item.note}${item.command ? `\n      ${item.command}` : ''}`);
} finally {
  await platform.close();
}
