import base from '../../eslint.config.mjs';

// src/node holds the production ports for Node (@transport/domain/node): the one place of the library that may import
// Node's crypto. Every other rule of the domain holds there too: the same restriction, without crypto.
const allowCrypto = (entry) => {
  const rule = entry.rules?.['no-restricted-imports'];
  if (!entry.files?.includes('libs/domain/src/**/*.ts') || !rule) return [];
  const [level, options] = rule;
  const paths = options.paths.filter((path) => path.name !== 'crypto' && path.name !== 'node:crypto');
  return [{ files: ['src/node/**/*.ts'], rules: { 'no-restricted-imports': [level, { ...options, paths }] } }];
};

export default [...base, ...base.flatMap(allowCrypto)];
