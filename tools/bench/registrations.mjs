// Registrations without an API key, each with a fresh e-mail, phone and licence: the body of `POST /drivers/add` for
// autocannon (the write-rate measurement and the flood's own process both use it).

let registered = 0;
const run = `${Date.now().toString(36)}-${process.pid}`;

/** autocannon `requests` that register a new driver each. */
export function registrations() {
  return {
    requests: [
      {
        setupRequest: (request) => {
          registered += 1;
          const n = registered;
          return {
            ...request,
            body: JSON.stringify({
              name: 'Bench Driver',
              phone: `02${String((process.pid * 100_000 + n) % 100000000).padStart(8, '0')}`,
              email: `bench-${run}-${n}@example.com`,
              license: `DL-B-${run}-${n}`,
              licenseClass: 'B',
              licenseExpiry: '2030-01-01',
              licenseIssueDate: '2020-01-01',
              idType: 'ghana_card',
              idNumber: `GHA-B${run}-${n}`,
              gender: 'female',
            }),
          };
        },
      },
    ],
  };
}
