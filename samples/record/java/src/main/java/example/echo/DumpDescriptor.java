package example.echo;

import java.io.FileOutputStream;
import java.io.IOException;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.FileDescriptor;

/**
 * Writes the SDK's own gRPC schema (the descriptor compiled into io.a2a.grpc.A2A, with the
 * files it imports) as a FileDescriptorSet, so that a test client can build its messages
 * from exactly what the server serves:
 *
 * <pre>java -cp CLASSPATH example.echo.DumpDescriptor OUT.pb</pre>
 */
public final class DumpDescriptor {
    private DumpDescriptor() {
    }

    public static void main(String[] args) throws IOException {
        FileDescriptorSet.Builder set = FileDescriptorSet.newBuilder();
        add(io.a2a.grpc.A2A.getDescriptor(), set, new java.util.HashSet<>());
        try (FileOutputStream out = new FileOutputStream(args[0])) {
            set.build().writeTo(out);
        }
    }

    private static void add(FileDescriptor file, FileDescriptorSet.Builder set, java.util.Set<String> seen) {
        if (!seen.add(file.getName())) {
            return;
        }
        for (FileDescriptor dependency : file.getDependencies()) {
            add(dependency, set, seen);
        }
        set.addFile(file.toProto());
    }
}
