"""The echo executor and agent card shared by agent_python.py and agent_python_grpc.py.

Every message is answered with a task: submitted -> working -> an artifact echoing the
text -> completed. The text "fail" makes the executor raise once the task is working;
with `twice`, the text "twice" makes it publish the task a second time mid-stream.
"""

from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentSkill


class EchoExecutor(AgentExecutor):
    def __init__(self, twice: bool = True):
        self.twice = twice

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        text = context.get_user_input()
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.start_work()
        if text == 'fail':
            raise RuntimeError('the echo agent failed on purpose')
        if self.twice and text == 'twice':
            await event_queue.enqueue_event(task)
        await updater.add_artifact([new_text_part(f'echo: {text}')], name='echo')
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is not None:
            await TaskUpdater(event_queue, task.id, task.context_id).cancel()


def echo_card(name: str, description: str, interfaces: list, *, streaming: bool,
              extended_agent_card: bool) -> AgentCard:
    """The card: `interfaces` (AgentInterface), no push notifications, one echo skill."""
    return AgentCard(
        name=name,
        description=description,
        version='1.0.0',
        supported_interfaces=interfaces,
        capabilities=AgentCapabilities(
            streaming=streaming,
            push_notifications=False,
            extended_agent_card=extended_agent_card,
        ),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[
            AgentSkill(
                id='echo',
                name='Echo',
                description='Repeats the text of the message.',
                tags=['echo'],
            )
        ],
    )
