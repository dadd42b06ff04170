package languages

// jsSamples are JavaScript's positive and negative examples.
var jsSamples = []Sample{
	{Path: "a.test.js", Source: "describe('outer', () => {\n  describe('inner', () => {\n    it('works', () => { expect(sum(1, 1)).toBe(2); expect(true).toBe(true) })\n  })\n  test.skip('later', () => {})\n  xit('off', () => {})\n})\ntest('top', () => { assert(ok); assert.equal(total, 1) })\n",
		Tests: []string{"outer > inner > works active", "outer > later skipped", "outer > off skipped", "top active"}, Assertions: 3, Vacuous: 1},
	// A focused test or describe switches off the rest of the file.
	{Path: "f.test.js", Source: "describe('outer', () => {\n  it.only('focused', () => {})\n  it('other', () => {})\n})\nfdescribe('group', () => {\n  it('inside', () => {})\n  it.skip('off', () => {})\n})\nfit('f', () => {})\ntest('top', () => {})\n",
		Tests: []string{"outer > focused active", "outer > other skipped", "group > inside active", "group > off skipped", "f active", "top skipped"}},
	{Path: "src/__tests__/b.ts", Source: "describe.skip('off', () => { it('a', () => {}) })\nxdescribe('x', () => { test('b', () => {}) })\nit.todo('c')\ntest.each([[1], [2]])('row %i', (n) => { expect(n).toBeTruthy() })\ntest.each`\n  a\n  ${1}\n`('tagged $a', ({a}) => {})\nit.concurrent('d', async () => {})\n",
		Tests: []string{"off > a skipped", "x > b skipped", "c skipped", "row %i active", "tagged $a active", "d active"}, Assertions: 1},
	{Path: "c.spec.tsx", Source: "import { render } from 'x'\nit('renders', () => { const el = <div/>; el.should.exist; expect(el).toBeDefined() })\n",
		Tests: []string{"renders active"}, Assertions: 2},
	// Switched off however it is written: a return first, under a constant
	// condition or not; a test that hides its failure; a describe chosen
	// by a constant; a test never registered. Real conditions stay active,
	// and assertions that cannot run are not counted.
	{Path: "off.test.js", Source: "test('return first', () => { if (true) return; expect(a).toBe(1) })\ntest('plain return', () => { return; expect(a).toBe(1) })\ntest('platform', () => { if (process.platform === 'win32') return; expect(a).toBe(1) })\ntest('late return', () => { expect(a).toBe(1); return; expect(b).toBe(2) })\ntest.failing('hides', () => { expect(a).toBe(2) })\ntest('dead', () => { if (false) { expect(a).toBe(1) } else { expect(c).toBe(1) }; false && expect(b).toBe(1); while (0) expect(d).toBe(1) })\n;(true ? describe.skip : describe)('chosen', () => { test('inside', () => {}) })\n;(isCI ? describe.skip : describe)('real', () => { test('inside', () => {}) })\nif (!true || 1 !== 1) { test('never registered', () => {}) }\n",
		Tests: []string{"return first skipped", "plain return skipped", "platform active", "late return active", "hides skipped", "dead active", "chosen > inside skipped", "real > inside active", "never registered skipped"}, Assertions: 3},
	// A const named once is folded: a callee or a return chosen by it is
	// decided; one from the environment, or a name bound again, is not.
	{Path: "named.test.js", Source: "const SKIP = true\nconst REAL = process.env.CI\nconst TWICE = true\nfunction f(TWICE) {}\n;(SKIP ? it.skip : it)('k1', () => { expect(add(1)).toBe(2) })\n;(REAL ? it.skip : it)('k2', () => { expect(add(1)).toBe(2) })\n;(TWICE ? it.skip : it)('k3', () => { expect(add(1)).toBe(2) })\nit('k4', () => { if (SKIP) return; expect(add(1)).toBe(2) })\n",
		Tests: []string{"k1 skipped", "k2 active", "k3 active", "k4 skipped"}, Assertions: 2},
	// A test function switched off under another name: taken as it is,
	// from the global object, destructured, picked by a key the reader
	// cannot resolve (not known to run, so not active), or registered in
	// a function nothing calls; a return of undefined first.
	{Path: "alias.test.js", Source: "const group = describe.skip\nconst { skip: quiet, only: solo } = describe\nvar test = global.test.skip\ngroup('g1', () => { it('x', () => { expect(add(1)).toBe(2) }) })\nquiet('g2', () => { it('x', () => { expect(add(1)).toBe(2) }) })\ndescribe['sk' + 'ip']('g3', () => { it('x', () => { expect(add(1)).toBe(2) }) })\ntest('t', () => { expect(add(1)).toBe(2) })\nfunction never() { describe('g4', () => { it('x', () => { expect(add(1)).toBe(2) }) }) }\nit('undef', () => { return undefined; expect(add(1)).toBe(2) })\n",
		Tests: []string{"g1 > x skipped", "g2 > x skipped", "g3 > x skipped", "t skipped", "g4 > x skipped", "undef skipped"}},
	// Negative: the same forms that run: an alias of the plain function,
	// a key that is a literal, global.it, a function that is called or
	// exported, a return of a promise.
	{Path: "alias_on.test.js", Source: "const group = describe\nconst { each } = test\ngroup('g1', () => { it('x', () => { expect(add(1)).toBe(2) }) })\ndescribe['concurrent']('g3', () => { global.it('x', () => { expect(add(1)).toBe(2) }) })\nfunction suite() { describe('g4', () => { it('x', () => { expect(add(1)).toBe(2) }) }) }\nsuite()\nexport function shared() { it('s', () => { expect(add(1)).toBe(2) }) }\nit('promise', () => { return run().then(v => expect(v).toBe(2)) })\n",
		Tests: []string{"g1 > x active", "g3 > x active", "g4 > x active", "s active", "promise active"}, Assertions: 5},
	// Vitest's, Mocha's, Jasmine's and node:test's own ways to switch off.
	{Path: "vi.test.ts", Source: "test.skipIf(true)('skipIf true', () => {})\ntest.skipIf(isWindows)('skipIf real', () => {})\nit.runIf(false)('runIf false', () => {})\ntest.fails('fails', () => {})\ntest('ctx skip', (ctx) => { ctx.skip(); expect(a).toBe(1) })\ntest('ctx skip real', (ctx) => { ctx.skip(isWindows); expect(a).toBe(1) })\ntest('destructured', ({ skip }: Ctx) => { skip() })\ntest('option', { skip: true }, () => {})\ntest('option real', { skip: isWindows }, () => {})\nit('this.skip', function () { if (1 === 1) { this.skip() } })\nit('return this.skip', function () { if (!false) return this.skip() })\nit('pending')\nit('jasmine', () => { pending('later') })\ndescribe.runIf(false)('group', () => { test('in', () => {}) })\n",
		Tests: []string{"skipIf true skipped", "skipIf real active", "runIf false skipped", "fails skipped", "ctx skip skipped", "ctx skip real active", "destructured skipped", "option skipped", "option real active", "this.skip skipped", "return this.skip skipped", "pending skipped", "jasmine skipped", "group > in skipped"}, Assertions: 1},
	// Assertions that compare constants cannot fail; one that always
	// fails is a deliberate failure and counts.
	{Path: "vacuous.test.js", Source: "test('vacuous', () => {\n  expect(2).toBe(2); expect(true).toBe(true); expect(1).toEqual(1); expect(-1).not.toBe(1); expect(true).toBeTruthy(); expect(null).toBeNull()\n  expect('a').to.equal(\"a\"); expect(true).to.be.true\n  assert.equal(1, 1); assert.strictEqual('a', 'a'); assert.ok(true); assert(true); assert.isTrue(!false)\n  expect(x).toBe(2); expect(2).toBe(x); expect(x).toBe(x); expect(1 + 1).toBe(2); assert.equal(a, 1); expect(true).toBe(false)\n})\ntest('ava', t => { t.is(1, 1); t.pass(); t.true(true); t.is(a, 1); t.truthy(x) })\n",
		Tests: []string{"vacuous active", "ava active"}, Assertions: 8, Vacuous: 16},
	// tape's and node:test's subtests, t.test(…), are tests the runner
	// reports on their own, under their own names.
	{Path: "tape.test.js", Source: "var test = require('tape')\ntest('parse()', function (t) {\n  t.test('parses a string', function (st) { st.deepEqual(qs.parse('a'), { a: '' }); st.end() })\n  t.test('nested', function (st) { st.test('deeper', function (s2) { s2.ok(x); s2.end() }); st.end() })\n  t.end()\n})\n",
		Tests: []string{"parse() active", "parses a string active", "nested active", "deeper active"}, Assertions: 2},
	// A computed title is one test, its computed parts as placeholders;
	// escapes are decoded as the runner decodes them.
	{Path: "title.test.js", Source: "methods.forEach(function (method) {\n  it('should include ' + method, function () {})\n  it(`handles ${method} twice`, () => {})\n})\nit('child\\'s \\u00e9\\x41', () => {})\nit(name, () => {})\ntest(t => { t.pass() })\n",
		Tests: []string{"should include ${…} active", "handles ${…} twice active", "child's éA active", "${…} active"}},
	// A describe or test picked by a condition and given a name: active
	// unless the condition is constant.
	{Path: "alias.test.js", Source: "const describeIf = hasDB ? describe : describe.skip\nconst off = false ? describe : describe.skip\nlet itOnLinux = process.platform === 'linux' ? it : it.skip\ndescribeIf('db', () => { it('reads', () => {}) })\noff('never', () => { it('x', () => {}) })\nitOnLinux('linux only', () => {})\n",
		Tests: []string{"db > reads active", "never > x skipped", "linux only active"}},
	// Negative: not tests.
	{Path: "d.test.js", Source: "const test = 1\nfunction it() {}\nitems.forEach(x => x)\nobj.test('not a test')\n", Tests: nil},
	{Path: "src/app.js", Source: "it('not in a test file', () => {})\n", Tests: nil},
	// Negative: a t that is not a test's context, a skip that is not a test's.
	{Path: "e.test.js", Source: "const t = lib()\nt.is(1, 1)\nitems.skip()\nfunction helper(t) { t.is(a, b) }\n", Tests: nil},
}
