// Loads every package the way a CommonJS user does. The testkit's main entry must load with
// vitest absent from the process (vitest refuses to be required); its suites are for test files.
const entries = process.argv.slice(2);
let failed = 0;
for (const name of entries) {
  try {
    const mod = require(name);
    const names = Object.keys(mod).filter((key) => key !== 'default');
    if (names.length === 0) throw new Error('no named exports');
    console.log(`ok   require ${name} (${names.length} exports)`);
  } catch (error) {
    failed += 1;
    console.log(`FAIL require ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
if (Object.keys(require.cache).some((file) => /[\\/]node_modules[\\/]vitest[\\/]/.test(file))) {
  failed += 1;
  console.log('FAIL vitest was loaded by a main entry');
}
process.exit(failed ? 1 : 0);
