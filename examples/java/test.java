// test.java
import java.io.*;

public class test {
    public static void main(String[] args) {
        try {
            FileWriter caw = new FileWriter("test.tmp");
            BufferedWriter bos = new BufferedWriter(caw);
            for (int i = 0; i < 14000; i++)
                bos.write('a');
            bos.close();

            caw = new FileWriter("test.tmp");
            bos = new BufferedWriter(caw, 4096);
            for (int i = 0; i < 14000; i++)
                bos.write('x');
            bos.close();

        } catch (IOException e) {
            System.err.println("Unexpected IOException: " + e);
        }
    }
}
