package languages

// kotlinSamples are Kotlin's positive and negative examples.
var kotlinSamples = []Sample{
	{Path: "src/test/kotlin/CalcTest.kt", Source: "class CalcTest {\n    @Test\n    fun adds() { assertEquals(2, 1 + 1); result shouldBe 2 }\n    @Disabled(\"x\") @Test fun off() {}\n    @ParameterizedTest @ValueSource(ints = [1, 2]) fun cases(n: Int) { assertTrue(true) }\n    fun helper() { verify { m.call() } }\n}\n",
		Tests: []string{"CalcTest#adds active", "CalcTest#off skipped", "CalcTest#cases active"}, Assertions: 3, Vacuous: 1},
	{Path: "src/test/kotlin/CalcSpec.kt", Source: "class CalcSpec : StringSpec({\n    \"strings work\" { \"a\".length shouldBe 1 }\n    test(\"named\") { shouldThrow<E> { f() } }\n    xtest(\"skipped\") { }\n    test(\"off\").config(enabled = false) { }\n})\n",
		Tests: []string{"CalcSpec > strings work active", "CalcSpec > named active", "CalcSpec > skipped skipped", "CalcSpec > off skipped"}, Assertions: 2},
	// Switched off however it is written: a return first, an assumption
	// that fails on a constant, a disabled class, kotest's bang and
	// config, a skip exception, a test never registered. Real
	// conditions stay active; assertions that cannot run or cannot
	// fail are not counted.
	{Path: "src/test/kotlin/SwitchedTest.kt", Source: "class SwitchedTest {\n    @Test fun returnsFirst() { if (true) return; assertEquals(1, x) }\n    @Test fun assumes() { Assumptions.assumeTrue(false); assertEquals(1, x) }\n    @Test fun assumesReal() { assumeTrue(isLinux()); assertEquals(1, x) }\n    @Test fun vacuous() { assertEquals(3, 3); assertTrue(!false); 1 shouldBe 1; assert(true); x shouldBe 1; if (false) { x shouldBe 2 } }\n}\n@Disabled class OffTest { @Test fun inside() {} }\nclass OffSpec : FunSpec({\n    test(\"config\").config(enabledIf = { false }) { }\n    test(\"config real\").config(enabled = isLinux) { }\n    \"!bang\" { }\n    test(\"return first\") { return@test }\n    test(\"aborts\") { throw TestAbortedException() }\n    if (false) { test(\"never\") { } }\n})\n",
		Tests: []string{"SwitchedTest#returnsFirst skipped", "SwitchedTest#assumes skipped", "SwitchedTest#assumesReal active", "SwitchedTest#vacuous active", "OffTest#inside skipped",
			"OffSpec > config skipped", "OffSpec > config real active", "OffSpec > !bang skipped", "OffSpec > return first skipped", "OffSpec > aborts skipped", "OffSpec > never skipped"}, Assertions: 2, Vacuous: 4},
	// Kotest's focus: a top-level "f:" test runs alone.
	{Path: "src/test/kotlin/FocusSpec.kt", Source: "class FocusSpec : FunSpec({\n    test(\"f:focused\") { }\n    test(\"other\") { }\n})\n",
		Tests: []string{"FocusSpec > f:focused active", "FocusSpec > other skipped"}},
	// A val or const val the file binds once to a constant is that
	// constant, and so is a function no subclass overrides that returns
	// one: an assumption or a return first on it switches the test off. A
	// var, a value from the environment and a real helper are conditions.
	{Path: "src/test/kotlin/NamedTest.kt", Source: "const val QUARANTINE = true\nval OFF = true\nvar MUTABLE = true\nval LIVE = System.getenv(\"LIVE\") != null\n\nclass NamedTest {\n    private val flaky = true\n    @Test fun assumesNot() { assumeTrue(!QUARANTINE); assertEquals(1, Math.abs(-1)) }\n    @Test fun returnsFirst() { if (OFF) return; assertEquals(1, Math.abs(-1)) }\n    @Test fun member() { Assumptions.assumeFalse(this.flaky); assertEquals(1, Math.abs(-1)) }\n    @Test fun fromEnv() { assumeTrue(!LIVE); assertEquals(1, Math.abs(-1)) }\n    @Test fun mutable() { assumeFalse(MUTABLE); assertEquals(1, Math.abs(-1)) }\n    @Test fun helperFalse() { assumeTrue(stable()); assertEquals(1, Math.abs(-1)) }\n    @Test fun helperTrue() { if (quarantined()) return; assertEquals(1, Math.abs(-1)) }\n    @Test fun helperReal() { assumeTrue(real()); assertEquals(1, Math.abs(-1)) }\n    private fun stable() = false\n    private fun quarantined(): Boolean { return true }\n    private fun real() = System.getenv(\"NOPE\") == null\n}\n",
		Tests: []string{"NamedTest#assumesNot skipped", "NamedTest#returnsFirst skipped", "NamedTest#member skipped", "NamedTest#fromEnv active", "NamedTest#mutable active",
			"NamedTest#helperFalse skipped", "NamedTest#helperTrue skipped", "NamedTest#helperReal active"}, Assertions: 3},
	// Negative: not tests.
	{Path: "src/main/kotlin/Calc.kt", Source: "class Calc { @Test fun notInATestFile() {} }\n", Tests: nil},
	{Path: "src/test/kotlin/Util.kt", Source: "class Util { fun testLooksLikeJUnit3() {} fun setup() { listOf(1).forEach { } } }\n", Tests: nil},
}
