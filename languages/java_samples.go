package languages

// javaSamples are Java's positive and negative examples.
var javaSamples = []Sample{
	{Path: "src/test/java/a/ATest.java", Source: "class ATest {\n  @Test void one() { assertEquals(1, add(0, 1)); assertTrue(true); }\n  @org.junit.jupiter.api.Test void two() { Assertions.assertThat(x).isEqualTo(1); }\n  @ParameterizedTest @ValueSource(ints = {1, 2}) void three(int x) { verify(mock).call(); }\n  @Test @Disabled(\"later\") void four() { fail(\"x\"); }\n  @Nested class Inner { @RepeatedTest(3) void five() {} }\n  void helper() { assertNotNull(x); }\n}\n",
		Tests: []string{"ATest#one active", "ATest#two active", "ATest#three active", "ATest#four skipped", "ATest.Inner#five active"}, Assertions: 5, Vacuous: 1},
	{Path: "LegacyTest.java", Source: "public class LegacyTest extends TestCase {\n  public void testOne() { assertEquals(1, one()); }\n  public void helperTest() {}\n  private void testPrivate() {}\n}\n@Ignore\nclass OffTest { @Test public void a() {} }\n",
		Tests: []string{"LegacyTest#testOne active", "OffTest#a skipped"}, Assertions: 1},
	// Switched off however it is written: a return first, an assumption
	// that fails on a constant, an abort, a skip exception, TestNG's
	// enabled = false, Spring's @EnabledIf("false"). Real conditions
	// stay active; assertions that cannot run are not counted.
	{Path: "src/test/java/SwitchedTest.java", Source: "class SwitchedTest {\n  @Test void returnsFirst() { if (true) return; assertEquals(1, x); }\n  @Test void assumesFalse() { Assumptions.assumeTrue(false); assertEquals(1, x); }\n  @Test void assumesStatic() { assumeFalse(true, \"never\"); }\n  @Test void assumesReal() { assumeTrue(isLinux()); assertEquals(1, x); }\n  @Test void aborts() { assertEquals(1, x); Assumptions.abort(\"later\"); }\n  @Test void throwsSkip() { throw new SkipException(\"later\"); }\n  @Test(enabled = false) void testng() {}\n  @Test @EnabledIf(\"false\") void spring() {}\n  @Test @EnabledIf(\"customCondition\") void junitMethod() {}\n  @Test void deadCode() { if (false) { assertEquals(1, x); } boolean b = !true && assertAll(); assertEquals(2, y); return; }\n}\n",
		Tests: []string{"SwitchedTest#returnsFirst skipped", "SwitchedTest#assumesFalse skipped", "SwitchedTest#assumesStatic skipped", "SwitchedTest#assumesReal active", "SwitchedTest#aborts skipped", "SwitchedTest#throwsSkip skipped", "SwitchedTest#testng skipped", "SwitchedTest#spring skipped", "SwitchedTest#junitMethod active", "SwitchedTest#deadCode active"}, Assertions: 3},
	// Assertions on constants cannot fail; one that always fails is a
	// deliberate failure and counts.
	{Path: "src/test/java/VacuousTest.java", Source: "class VacuousTest {\n  @Test void vacuous() {\n    assertEquals(3, 3); assertEquals(\"msg\", 1L, 1); assertTrue(\"msg\", true); assertNull(null); assertNotEquals(1, 2);\n    assertThat(1).isEqualTo(1); assertThat(true).as(\"x\").isTrue(); assertThat(1, is(1)); assertThat(\"a\", not(equalTo(\"b\"))); assertEquals('a', 'a'); assertEquals(-1, -1);\n    assertEquals(x, x); assertTrue(false); assertEquals(1, 2); assertThat(x).isEqualTo(1);\n  }\n}\n",
		Tests: []string{"VacuousTest#vacuous active"}, Assertions: 4, Vacuous: 11},
	// A name the file binds once to a constant, final or private, is that
	// constant, and so is a private, static or final helper that returns
	// one: an assumption or a return first on it switches the test off. A
	// name from the environment, bound twice or shadowed, and a helper a
	// subclass may override, are real conditions.
	{Path: "src/test/java/NamedTest.java", Source: "class NamedTest {\n  static final boolean QUARANTINE = true;\n  static final boolean LIVE = System.getenv(\"LIVE\") != null;\n  static final boolean SLOW = true;\n  private boolean flaky = true;\n  @BeforeEach void setUp() { flaky = false; }\n  @Test void assumesNot() { assumeTrue(!QUARANTINE); assertEquals(1, Math.abs(-1)); }\n  @Test void assumesFalse() { Assumptions.assumeFalse(NamedTest.QUARANTINE); }\n  @Test void returnsFirst() { if (QUARANTINE) return; assertEquals(1, Math.abs(-1)); }\n  @Test void fromEnv() { assumeTrue(!LIVE); assertEquals(1, Math.abs(-1)); }\n  @Test void boundTwice() { assumeFalse(flaky); assertEquals(1, Math.abs(-1)); }\n  @Test void shadowed() { boolean SLOW = Math.abs(-1) == 2; assumeFalse(SLOW); assertEquals(1, Math.abs(-1)); }\n  @Test void helperFalse() { assumeTrue(stable()); assertEquals(1, Math.abs(-1)); }\n  @Test void helperTrue() { if (quarantined()) return; assertEquals(1, Math.abs(-1)); }\n  @Test void helperReal() { assumeTrue(real()); assertEquals(1, Math.abs(-1)); }\n  @Test void helperOverridable() { assumeTrue(open()); assertEquals(1, Math.abs(-1)); }\n  private boolean stable() { return false; }\n  private static boolean quarantined() { return true; }\n  private boolean real() { return System.getenv(\"NOPE\") == null; }\n  boolean open() { return true; }\n}\n",
		Tests: []string{"NamedTest#assumesNot skipped", "NamedTest#assumesFalse skipped", "NamedTest#returnsFirst skipped", "NamedTest#fromEnv active", "NamedTest#boundTwice active",
			"NamedTest#shadowed active", "NamedTest#helperFalse skipped", "NamedTest#helperTrue skipped", "NamedTest#helperReal active", "NamedTest#helperOverridable active"}, Assertions: 5},
	// JUnit's @EnabledIf and @DisabledIf name a condition method: one of the
	// file's that always returns the value that switches the test off
	// switches it off; a real one decides at run time.
	{Path: "src/test/java/CondTest.java", Source: "class CondTest {\n  @Test @org.junit.jupiter.api.condition.DisabledIf(\"quarantined\") void disabledStatic() { }\n  @Test @org.junit.jupiter.api.condition.EnabledIf(\"stable\") void enabledInstance() { }\n  @Test @org.junit.jupiter.api.condition.EnabledIf(\"real\") void enabledReal() { }\n  @Test @org.junit.jupiter.api.condition.DisabledIf(\"CondTest#quarantined\") void qualified() { }\n  static boolean quarantined() { return true; }\n  private boolean stable() { return false; }\n  boolean real() { return System.getenv(\"NOPE\") == null; }\n}\n",
		Tests: []string{"CondTest#disabledStatic skipped", "CondTest#enabledInstance skipped", "CondTest#enabledReal active", "CondTest#qualified skipped"}},
	// Negative: not tests.
	{Path: "src/main/java/App.java", Source: "class App { @Test void notInATestFile() {} }\n", Tests: nil},
	{Path: "UtilTest.java", Source: "class UtilTest { void testLooksLikeJUnit3ButNoTestCase() {} @Override public String toString() { return \"\"; } }\n", Tests: nil},
}
