package example.echo;

import java.util.List;

import io.a2a.server.agentexecution.AgentExecutor;
import io.a2a.server.agentexecution.RequestContext;
import io.a2a.server.tasks.AgentEmitter;
import io.a2a.spec.Task;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TextPart;

/**
 * Answers every message with a task: submitted, working, one artifact that echoes the
 * text, completed. "fail" throws once the task is working, "twice" publishes the task a
 * second time in the middle, and "slow" waits a few seconds before finishing (for a
 * client deadline that expires).
 */
final class EchoExecutor implements AgentExecutor {

    @Override
    public void execute(RequestContext context, AgentEmitter emitter) {
        String text = context.getUserInput(" ");
        Task task = context.getTask();
        if (task == null) {
            task = emitter.taskBuilder()
                    .status(new TaskStatus(TaskState.TASK_STATE_SUBMITTED))
                    .history(List.of(context.getMessage()))
                    .build();
            emitter.addTask(task);
        }
        emitter.startWork();
        if (text.equals("fail")) {
            throw new IllegalStateException("the echo agent failed on purpose");
        }
        if (text.equals("twice")) {
            emitter.addTask(task);
        }
        if (text.equals("slow")) {
            try {
                Thread.sleep(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        emitter.addArtifact(List.of(new TextPart("echo: " + text)), null, "echo", null);
        emitter.complete();
    }

    @Override
    public void cancel(RequestContext context, AgentEmitter emitter) {
        emitter.cancel();
    }
}
