package languages

// rubySamples are Ruby's positive and negative examples.
var rubySamples = []Sample{
	{Path: "spec/a_spec.rb", Source: "describe Calc do\n  context \"adding\" do\n    it \"adds\" do\n      expect(1 + 1).to eq(2)\n      expect(true).to be true\n    end\n    xit \"later\" do end\n    it \"pending\"\n    it \"meta\", skip: true do end\n    its(:size) { is_expected.to eq 1 }\n  end\nend\n",
		Tests: []string{"Calc > adding > adds active", "Calc > adding > later skipped", "Calc > adding > pending skipped", "Calc > adding > meta skipped", "Calc > adding > size active"}, Assertions: 2, Vacuous: 1},
	{Path: "test/models/user_test.rb", Source: "class UserTest < ActiveSupport::TestCase\n  test \"is valid\" do\n    assert user.valid?\n    refute_nil user\n  end\n  def test_name\n    assert_equal \"a\", user.name\n    skip \"later\"\n  end\n  def helper; assert true; end\nend\n",
		Tests: []string{"UserTest#test_is_valid active", "UserTest#test_name skipped"}, Assertions: 2, Vacuous: 1},
	// Switched off however it is written: skip under a constant
	// condition, omit_if on a constant, next first, an example never
	// defined. Real conditions stay active; assertions that cannot run
	// or cannot fail are not counted.
	{Path: "spec/off_spec.rb", Source: "describe Off do\n  it \"skips if true\" do\n    skip \"later\" if true\n    expect(a).to eq(1)\n  end\n  it \"skips on a real condition\" do\n    skip \"windows\" if Gem.win_platform?\n    expect(a).to eq(1)\n  end\n  it \"omits\" do omit_if(1 == 1) end\n  it \"meta real\", skip: !linux? do end\n  it \"meta false\", skip: false do end\n  it \"next first\" do next; expect(a).to eq(1) end\n  it \"never\" do end if false\n  it \"vacuous\" do\n    expect(1).to eq(1); expect(true).to be true; expect(nil).to be_nil; expect(1).not_to eq(2); expect(:a).to eq(:a)\n    expect(a).to eq(1); expect(1).to eq(a); expect(true).to be false\n    if false then expect(a).to eq(2) end\n  end\nend\n",
		Tests: []string{"Off > skips if true skipped", "Off > skips on a real condition active", "Off > omits skipped", "Off > meta real active", "Off > meta false active", "Off > next first skipped", "Off > never skipped", "Off > vacuous active"}, Assertions: 4, Vacuous: 5},
	{Path: "test/vacuous_test.rb", Source: "class VacuousTest < Minitest::Test\n  def test_vacuous; assert_equal 1, 1; assert true; refute false; assert_nil nil; assert_equal \"a\", 'a'; assert_equal 1, a; end\n  def test_return_first; return; assert a; end\n  def test_pend; pend(\"later\"); end\nend\n",
		Tests: []string{"VacuousTest#test_vacuous active", "VacuousTest#test_return_first skipped", "VacuousTest#test_pend skipped"}, Assertions: 1, Vacuous: 5},
	// A constant named once is folded: skip under it, or skip: it, is
	// a skip; a constant from the environment, or one bound twice, is
	// a real condition.
	{Path: "spec/named_spec.rb", Source: "QUARANTINE = true\nLIVE = ENV['LIVE']\nFLAKY = true\nFLAKY ||= false\ndescribe 'a' do\n  it 'k' do\n    skip if QUARANTINE\n    expect(add(1)).to eq(2)\n  end\n  it 'l' do\n    skip unless LIVE\n    expect(add(1)).to eq(2)\n  end\n  it 'm', skip: QUARANTINE do\n    expect(add(1)).to eq(2)\n  end\n  it 'n' do\n    skip if FLAKY\n    expect(add(1)).to eq(2)\n  end\nend\n",
		Tests: []string{"a > k skipped", "a > l active", "a > m skipped", "a > n active"}, Assertions: 2},
	// The same in Minitest: a skip or a return first under a constant named
	// once; one from the environment, or bound twice, is a real condition.
	{Path: "test/named_test.rb", Source: "QUARANTINE = true\nLIVE = ENV['LIVE']\nFLAKY = true\nFLAKY = false if ENV['CI']\nclass NamedTest < Minitest::Test\n  def test_skips\n    skip if QUARANTINE\n    assert_equal 2, 1 + 1\n  end\n  def test_returns_first\n    return if QUARANTINE\n    assert_equal 2, 1 + 1\n  end\n  def test_live\n    skip unless LIVE\n    assert_equal 2, 1 + 1\n  end\n  def test_flaky\n    return if FLAKY\n    assert_equal 2, 1 + 1\n  end\nend\n",
		Tests: []string{"NamedTest#test_skips skipped", "NamedTest#test_returns_first skipped", "NamedTest#test_live active", "NamedTest#test_flaky active"}, Assertions: 2},
	// A set-up hook that skips switches off every test it runs
	// before: an RSpec before in the group or one around it,
	// Minitest's setup in the class. One that skips on a real
	// condition, or only returns, does not.
	{Path: "spec/setup_spec.rb", Source: "describe 'b' do\n  before { skip }\n  it 'x' do\n    expect(add(1)).to eq(2)\n  end\n  describe 'inner' do\n    it 'y' do expect(add(1)).to eq(2) end\n  end\nend\ndescribe 'c' do\n  before(:each) do\n    skip 'flaky'\n  end\n  it 'x' do expect(add(1)).to eq(2) end\nend\ndescribe 'e' do\n  before { skip if ENV['NOPE'] }\n  before { next }\n  before(:suite) { skip }\n  it 'x' do expect(add(1)).to eq(2) end\nend\n",
		Tests: []string{"b > x skipped", "b > inner > y skipped", "c > x skipped", "e > x active"}, Assertions: 1},
	{Path: "test/setup_test.rb", Source: "class FooTest < Minitest::Test\n  def setup\n    skip\n  end\n  def test_x\n    assert_equal 2, add(1)\n  end\nend\nclass BarTest < Minitest::Test\n  def setup\n    skip if ENV['NOPE']\n    return\n  end\n  def test_y\n    assert_equal 2, add(1)\n  end\nend\nclass RailsTest < ActiveSupport::TestCase\n  setup do\n    skip\n  end\n  test 'z' do\n    assert_equal 2, add(1)\n  end\nend\n",
		Tests: []string{"FooTest#test_x skipped", "BarTest#test_y active", "RailsTest#test_z skipped"}, Assertions: 1},
	// Negative: not tests.
	{Path: "lib/calc.rb", Source: "def test_x; assert 1; end\n", Tests: nil},
	{Path: "spec/b_spec.rb", Source: "describe X do\n  let(:it_value) { 1 }\n  def testing; end\nend\n", Tests: nil},
}
