public class Broken {
    int x

    void f() {
        x = (1 + ;
    }
}
