package languages

// csharpSamples are C#'s positive and negative examples.
var csharpSamples = []Sample{
	{Path: "CalcTests.cs", Source: "public class CalcTests {\n  [Fact]\n  public void Adds() { Assert.Equal(2, 1 + 1); result.Should().Be(2).And.NotBe(3); }\n  [Test, Ignore(\"x\")]\n  public void Ignored() { }\n  [Fact(Skip = \"later\")]\n  public void Later() { CollectionAssert.AreEqual(a, b); }\n  [Theory]\n  [InlineData(1)]\n  [InlineData(2)]\n  public void Cases(int n) { Assert.True(true); }\n  [TestCase(1)]\n  [TestCase(2)]\n  public void NUnitCases(int n) { StringAssert.Contains(\"a\", \"abc\"); }\n}\n",
		Tests: []string{"CalcTests.Adds active", "CalcTests.Ignored skipped", "CalcTests.Later skipped", "CalcTests.Cases active", "CalcTests.NUnitCases active"}, Assertions: 4, Vacuous: 1},
	{Path: "Tests/Legacy.cs", Source: "[TestClass]\npublic class Legacy {\n  [TestMethod]\n  public void Works() { Assert.IsTrue(ok); }\n  [DataTestMethod]\n  [DataRow(1)]\n  public void Rows(int x) { }\n  [Microsoft.VisualStudio.TestTools.UnitTesting.TestMethodAttribute]\n  public void Qualified() { }\n}\n",
		Tests: []string{"Legacy.Works active", "Legacy.Rows active", "Legacy.Qualified active"}, Assertions: 1},
	// Switched off however it is written: a return or Assert.Pass first,
	// a skip, ignore or inconclusive call, an assumption on a constant,
	// [Explicit], a skip exception, #if false, an ignored class. Real
	// conditions stay active; assertions that cannot run or cannot fail
	// are not counted.
	{Path: "Tests/SwitchedTests.cs", Source: "public class SwitchedTests {\n  [Fact] public void ReturnsFirst() { if (true) return; Assert.Equal(1, x); }\n  [Test] public void Ignores() { Assert.Ignore(\"later\"); Assert.AreEqual(1, x); }\n  [Test] public void Inconclusive() { Assert.Inconclusive(); }\n  [Fact] public void SkipsWhen() { Assert.SkipWhen(!false, \"x\"); }\n  [Fact] public void SkipsReal() { Skip.If(OperatingSystem.IsWindows()); Assert.Equal(1, x); }\n  [SkippableFact] public void SkippableIf() { Skip.If(true); }\n  [Test] public void Passes() { Assert.Pass(); Assert.AreEqual(1, x); }\n  [Test] public void Assumes() { Assume.That(false); }\n  [Test, Explicit] public void ExplicitOne() { }\n  [Fact(Skip = \"x\", SkipUnless = nameof(OnLinux))] public void Conditional() { }\n  [Fact(Skip = \"\")] public void EmptyReason() { }\n  [Fact(Explicit = true)] public void V3Explicit() { }\n  [Fact] public void Throws() { throw new SkipException(\"x\"); }\n#if false\n  [Fact] public void CompiledOut() { }\n#endif\n  [Fact] public void Vacuous() {\n    Assert.Equal(3, 3); Assert.AreEqual(\"a\", \"a\"); Assert.IsTrue(true); Assert.Null(null); Assert.That(1, Is.EqualTo(1)); Assert.That(true, Is.True); 1.Should().Be(1); true.Should().BeTrue(); Assert.NotEqual(1, 2);\n    Assert.Equal(x, x); Assert.Equal(1, x); x.Should().Be(1); if (false) { Assert.Equal(1, y); }\n  }\n}\n[Ignore(\"later\")]\npublic class OffTests { [Test] public void Inside() { } }\n",
		Tests: []string{"SwitchedTests.ReturnsFirst skipped", "SwitchedTests.Ignores skipped", "SwitchedTests.Inconclusive skipped", "SwitchedTests.SkipsWhen skipped", "SwitchedTests.SkipsReal active",
			"SwitchedTests.SkippableIf skipped", "SwitchedTests.Passes skipped", "SwitchedTests.Assumes skipped", "SwitchedTests.ExplicitOne skipped", "SwitchedTests.Conditional active",
			"SwitchedTests.EmptyReason active", "SwitchedTests.V3Explicit skipped", "SwitchedTests.Throws skipped", "SwitchedTests.CompiledOut skipped", "SwitchedTests.Vacuous active", "OffTests.Inside skipped"}, Assertions: 4, Vacuous: 9},
	// Negative: not tests.
	{Path: "src/Service.cs", Source: "public class Service {\n  [Obsolete]\n  public void TestConnection() { Debug.Assert(ok); }\n}\n", Tests: nil},
}
