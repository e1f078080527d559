// Writes each Jest run's totals to tmp/test-summary/, so `npm test` can print one closing line for every project.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const dir = join(__dirname, '..', 'tmp', 'test-summary');
    mkdirSync(dir, { recursive: true });
    const name = this.rootDir.replace(/[\\/]/g, '_');
    writeFileSync(
      join(dir, `${name}.json`),
      JSON.stringify({
        project: this.rootDir,
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        skipped: results.numPendingTests + results.numTodoTests,
      }),
    );
  }
}

module.exports = SummaryReporter;
