// Writes each Jest run's totals to tmp/test-summary/, so `npm test` can print one closing line for every project,
// and each test file's time, so it can name the slowest files of the whole run (where the suite's time goes).
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

class SummaryReporter {
  /** `options.name`: the summary's file name, for a project with more than one Jest run (the API's storm). */
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.name = options.name;
  }

  onRunComplete(_contexts, results) {
    const dir = join(__dirname, '..', 'tmp', 'test-summary');
    mkdirSync(dir, { recursive: true });
    const name = this.name ?? this.rootDir.replace(/[\\/]/g, '_');
    const workspace = join(__dirname, '..');
    writeFileSync(
      join(dir, `${name}.json`),
      JSON.stringify({
        project: this.rootDir,
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        skipped: results.numPendingTests + results.numTodoTests,
        files: results.testResults.map((file) => ({
          file: relative(workspace, file.testFilePath),
          seconds: Math.round((file.perfStats.end - file.perfStats.start) / 100) / 10,
          tests: file.testResults.length,
        })),
      }),
    );
  }
}

module.exports = SummaryReporter;
