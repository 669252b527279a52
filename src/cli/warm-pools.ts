#!/usr/bin/env node
// The `warm-pools` command: manage warm sandbox pools on the runtime API (see docs/warm-pools.md).
import { main } from './warm-pools-cli.js';

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // `warm-pools list | head`: the reader went away; that is not a failure.
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
