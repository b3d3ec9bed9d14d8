// Root method patterns ("^RootBase.m", doc/patterns.md) in agent.bats: a base
// class, two subclasses that override m, one that does not, a class of the
// same method outside the family, and two subclasses loaded after the
// registration, one whose superclass (RootMid) is loaded only with it.
// n, for '^java.lang.Object.n': RootLate's hook changes it for the literal
// pattern 'RootLate.m', and the root pattern selects its n once it is prepared.
// Usage: Roots GOFILE (waits for GOFILE, at most 60 s, before the calls).
import java.nio.file.Files;
import java.nio.file.Paths;

class RootBase { int m(int x) { return x; } int n() { return 7; } }
class RootA extends RootBase { @Override int m(int x) { return x + 10; } }
class RootB extends RootBase { @Override int m(int x) { return x + 20; } }
class RootC extends RootBase { int other() { return 0; } }
class RootOther { int m(int x) { return -x; } }
class RootLate extends RootBase { @Override int m(int x) { return x + 30; } @Override int n() { return 8; } }
class RootMid extends RootBase { @Override int m(int x) { return x + 40; } }
class RootLate2 extends RootMid { @Override int m(int x) { return super.m(x) + 1; } }

public class Roots {
	public static void main(String[] args) throws Exception {
		RootBase[] early = { new RootBase(), new RootA(), new RootB(), new RootC() };
		RootOther other = new RootOther();
		for (int i = 0; i < 3000 && !Files.exists(Paths.get(args[0])); i++)
			Thread.sleep(20);
		for (RootBase b : early)
			b.m(1);
		early[0].n();
		other.m(2);
		RootBase late = (RootBase) Class.forName("RootLate").getDeclaredConstructor().newInstance();
		late.m(3);
		late.n();
		((RootBase) Class.forName("RootLate2").getDeclaredConstructor().newInstance()).m(4);
	}
}
