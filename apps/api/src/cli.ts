import { keysCommand } from './cli/keys-command';
import { loadConfig } from './config';

// Operator commands, built beside the service: `node dist/apps/api/cli.js keys ...` (or `npm run keys -- ...`).
async function main(): Promise<number> {
  const [group, ...args] = process.argv.slice(2);
  if (group !== 'keys') {
    process.stderr.write('usage: cli keys <create|revoke|list> ...\n');
    return 2;
  }
  return keysCommand(args, loadConfig(), (line) => process.stdout.write(line + '\n'));
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.message ?? String(error)}\n`);
    process.exit(1);
  },
);
