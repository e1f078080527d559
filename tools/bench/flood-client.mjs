// The flood of the bench's flood scenario, in a process of its own (an attacker is not in the readers' process: with
// both in one event loop, the readers' latencies would count the time their answers waited behind the flood's in the
// client). Prints one JSON line: requests per second, registrations answered 201 per second, and refusals.
//
//   node tools/bench/flood-client.mjs <url> <connections> <seconds>
import autocannon from 'autocannon';
import { registrations } from './registrations.mjs';

const [url, connections, seconds] = process.argv.slice(2);
autocannon(
  {
    url,
    method: 'POST',
    connections: Number(connections),
    duration: Number(seconds),
    headers: { 'content-type': 'application/json' },
    ...registrations(),
  },
  (error, r) => {
    if (error) {
      console.error(error);
      process.exit(1);
    }
    console.log(
      JSON.stringify({ rps: r.requests.average, acceptedPerSecond: r['2xx'] / r.duration, non2xx: r.non2xx }),
    );
  },
);
