import java.io.InputStream;

/**
 * Starts Amazon's DynamoDB Local in this JVM and ends the JVM when its parent (the local host) is
 * gone. The host holds this process's standard input open; when the host dies, even by SIGKILL,
 * the kernel closes that pipe, the read below ends, and so does Java: no JVM is left orphaned
 * holding the data folder. Run in source-file mode (`java -cp DynamoDBLocal.jar <this file>`), so
 * nothing is compiled ahead or shipped as a binary.
 */
public final class DynamoDbLocalLauncher {
  private static final String SERVER = "com.amazonaws.services.dynamodbv2.local.main.ServerRunner";

  public static void main(String[] args) throws Exception {
    Thread watcher = new Thread(DynamoDbLocalLauncher::exitWhenParentIsGone, "parent-watch");
    watcher.setDaemon(true);
    watcher.start();
    // By name: the class is on the runtime class path (the jar), not needed to compile this file.
    Class.forName(SERVER).getMethod("main", String[].class).invoke(null, (Object) args);
  }

  private static void exitWhenParentIsGone() {
    byte[] buffer = new byte[64];
    try {
      InputStream in = System.in;
      while (in.read(buffer) != -1) {
        // The host writes nothing; any bytes are ignored.
      }
    } catch (Exception closed) {
      // A broken pipe means the same as end of input: the parent is gone.
    }
    System.exit(0);
  }
}
