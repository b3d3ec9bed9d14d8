// Unloadable: loaded by a throw-away class loader in Families' "classes"
// scenario, so that it can be unloaded (class.unload events).
public class Unloadable {
    public static int get() { return 1; }
}
