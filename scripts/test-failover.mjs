// npm run test:failover: the database failover test alone (server/reliability/failover.test.ts),
// its output as it comes, then its one-line result last, where a person or a script looks for it.
import { spawn } from 'node:child_process';

const child = spawn('npx', ['vitest', 'run', 'server/reliability/failover.test.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
let output = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  output += chunk;
});
child.on('exit', (code) => {
  const result = output.match(/^failover: .*$/m)?.[0];
  console.log(result ?? 'failover: the test ended without its result line (see above)');
  process.exit(code ?? 1);
});
