"""Builds and starts the a2a-java echo agent (samples/record/java/) for the recorders.

Used by record_a2a_java.py; it can also be imported on its own:

    import sdk_a2a_java as sdk
    sdk.install(env)                      # copies java/ into env and builds it there with Maven
    cmd, cwd = sdk.command(env, 8001, 'plain', 'a2a-java.example', grpc_port=8002)

The Maven project is copied to <env>/java and built there, with the local repository
<env>/m2, so no build output and no downloaded jar lands in the repository. Needs a
JDK 17 and Maven on PATH, and Maven Central.

The SDK is a2a-java 1.0.0.Alpha3 (group io.github.a2asdk): the newest release the
registry here serves. The 1.x releases under the group org.a2aproject.sdk (1.0.0.Final
and later) do not resolve from it.
"""

import pathlib
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True

NAME = 'a2a-java'
HERE = pathlib.Path(__file__).resolve().parent
PROJECT = HERE / 'java'
MAIN_CLASS = 'example.echo.EchoAgent'

# The artifacts whose versions go into versions.txt (groupId:artifactId).
REPORTED = (
    'io.github.a2asdk:a2a-java-sdk-transport-jsonrpc',
    'io.github.a2asdk:a2a-java-sdk-transport-rest',
    'io.github.a2asdk:a2a-java-sdk-transport-grpc',
    'io.github.a2asdk:a2a-java-sdk-server-common',
    'io.github.a2asdk:a2a-java-sdk-spec-grpc',
    'io.grpc:grpc-netty-shaded',
    'io.grpc:grpc-core',
    'com.google.protobuf:protobuf-java',
    'com.google.protobuf:protobuf-java-util',
    'com.google.code.gson:gson',
)


def _mvn(env: pathlib.Path, *goals: str) -> str:
    cmd = ['mvn', '-q', '-B', f'-Dmaven.repo.local={env / "m2"}', *goals]
    print('+', ' '.join(cmd), flush=True)
    return subprocess.run(cmd, cwd=env / 'java', check=True, text=True, stdout=subprocess.PIPE).stdout


def install(env: pathlib.Path) -> None:
    """Copies the Maven project into env/java and compiles it; writes env/java/classpath.txt."""
    target = env / 'java'
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(PROJECT, target, ignore=shutil.ignore_patterns('target'))
    _mvn(env, 'compile', 'dependency:build-classpath', '-Dmdep.outputFile=classpath.txt',
         '-Dmdep.includeScope=runtime')
    _mvn(env, 'dependency:list', '-DoutputFile=dependencies.txt', '-DexcludeTransitive=false')


def versions(env: pathlib.Path) -> list[str]:
    """The exact versions of the SDK artifacts and the libraries that shape the bytes."""
    listed = (env / 'java' / 'dependencies.txt').read_text()
    found = {}
    for match in re.finditer(r'([\w.\-]+):([\w.\-]+):jar:([\w.\-]+):\w+', listed):
        found[f'{match.group(1)}:{match.group(2)}'] = match.group(3)
    lines = [f'{name} {found[name]} (Maven Central)' for name in REPORTED if name in found]
    java = subprocess.run(['java', '-version'], text=True, capture_output=True).stderr.splitlines()
    lines.append(java[0].strip() if java else 'java (unknown version)')
    return lines


def command(env: pathlib.Path, port: int, config: str, host: str, grpc_port: int | None = None):
    """The command line that starts the agent, advertising `host` in its card, and the
    directory to start it in."""
    java = env / 'java'
    classpath = str(java / 'target' / 'classes') + ':' + (java / 'classpath.txt').read_text().strip()
    cmd = ['java', '-cp', classpath, MAIN_CLASS, '--port', str(port), '--config', config,
           '--host', host]
    if grpc_port is not None:
        cmd += ['--grpc-port', str(grpc_port)]
    return cmd, java
