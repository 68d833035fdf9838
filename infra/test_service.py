"""The service template against the code: run by `./udd test` (python -m unittest).

1. The task role grants exactly the IAM actions the server's code calls: every DynamoDB and
   DynamoDB Streams operation the source sends (any method of the SDK's clients, as the SDK
   itself lists its operations), and every kind of action inside its transactions, mapped to
   IAM actions as the AWS documentation maps them. One missing fails; one more fails.
2. Item actions are granted on the table, queries on its indexes, stream reads on its stream.
3. The template's table is infra/udd-table.yaml's (which a Rust test keeps equal to the table
   the code creates), with point-in-time recovery and deletion protection.

Which source the service runs: app/src and server/src, except the commands that run only on a
developer's machine against the embedded engine (SERVICE_EXCLUDES), `#[cfg(test)]` modules, and
calls marked `// iam: operator` (creating the table and turning TTL on: an operator's
`udd-server create-table`, never the service on AWS, which only checks the table).
"""

import json
import pathlib
import re
import subprocess
import unittest

from cfnlint.decode import decode_str

ROOT = pathlib.Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "infra" / "udd-service.yaml"
TABLE_TEMPLATE = ROOT / "infra" / "udd-table.yaml"
SERVICE_EXCLUDES = {
    # `udd-server bench` and `udd-server load`: the embedded engine on this machine only.
    "server/src/bench.rs",
    "server/src/bench",
    "server/src/load.rs",
    "server/src/load",
    # Builds the browser bundle; no AWS.
    "server/src/bindgen.rs",
}
OPERATOR_MARK = "iam: operator"

# The SDK's operations whose IAM action is not `dynamodb:<Operation>` (the AWS documentation,
# "Using IAM with DynamoDB transactions": a transaction is authorised by its actions' own).
TRANSACT_WRITE = "transact_write_items"
TRANSACT_GET = "transact_get_items"
# Each kind of action inside TransactWriteItems, as built with the SDK's types.
TRANSACTION_KINDS = {
    "Put": "dynamodb:PutItem",
    "Update": "dynamodb:UpdateItem",
    "Delete": "dynamodb:DeleteItem",
    "ConditionCheck": "dynamodb:ConditionCheckItem",
}
STREAM_ACTIONS = {"dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator",
                  "dynamodb:ListStreams"}


def sdk_operations():
    """Every operation of the two SDK clients (snake case), read from the SDK crates the build
    uses: each is a module under the crate's src/operation."""
    metadata = json.loads(subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    operations = {}
    for package in metadata["packages"]:
        if package["name"] in ("aws-sdk-dynamodb", "aws-sdk-dynamodbstreams"):
            src = pathlib.Path(package["manifest_path"]).parent / "src" / "operation"
            for module in src.iterdir():
                if module.is_dir():
                    operations.setdefault(module.name, set()).add(package["name"])
    return operations


def pascal(snake):
    return "".join(part.capitalize() for part in snake.split("_"))


def without_tests(text):
    """The text with each `#[cfg(test)]` item (a module to its closing brace) blanked out."""
    out = []
    i = 0
    for match in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if match.start() < i:
            continue
        out.append(text[i:match.start()])
        depth, j = 1, match.end()
        while depth and j < len(text):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def service_sources(root=ROOT):
    files = {}
    for path in sorted((root / "app" / "src").rglob("*.rs")) + \
            sorted((root / "server" / "src").rglob("*.rs")):
        rel = path.relative_to(root).as_posix()
        if any(rel == ex or rel.startswith(ex + "/") for ex in SERVICE_EXCLUDES):
            continue
        files[rel] = path.read_text()
    return files


def called(sources, operations):
    """IAM actions the sources need: {action: [where, ...]}, and the calls left unmapped."""
    needed = {}
    call = re.compile(r"\b(?:client|streams)\s*\.\s*([a-z_]+)\s*\(\s*\)")
    kind = re.compile(r"\b(Put|Update|Delete|ConditionCheck)::builder\(\)")
    for name, text in sources.items():
        text = without_tests(text)
        lines = text.split("\n")
        def marked(offset):
            line = text.count("\n", 0, offset)
            return any(OPERATOR_MARK in l for l in lines[max(0, line - 4):line + 1])
        for match in call.finditer(text):
            op = match.group(1)
            if op not in operations or marked(match.start()):
                continue
            where = f"{name}:{text.count(chr(10), 0, match.start()) + 1}"
            if op == TRANSACT_WRITE:
                continue  # authorised by its actions' kinds, found below
            action = "dynamodb:GetItem" if op == TRANSACT_GET else "dynamodb:" + pascal(op)
            needed.setdefault(action, []).append(where)
        for match in kind.finditer(text):
            where = f"{name}:{text.count(chr(10), 0, match.start()) + 1}"
            needed.setdefault(TRANSACTION_KINDS[match.group(1)], []).append(where)
    return needed


def uses_indexes(sources):
    return any(re.search(r"\.index_name\(", text) for text in sources.values())


def load(path):
    template, matches = decode_str(pathlib.Path(path).read_text())
    assert not matches, matches
    return template


def granted(template):
    """The task role's statements: {sid: (actions, resource as the template writes it)}."""
    role = template["Resources"]["TaskRole"]["Properties"]
    statements = {}
    for policy in role["Policies"]:
        for statement in policy["PolicyDocument"]["Statement"]:
            assert statement["Effect"] == "Allow", statement
            actions = statement["Action"]
            actions = [actions] if isinstance(actions, str) else actions
            statements[statement["Sid"]] = (set(actions), statement["Resource"])
    return statements


def compare(needed, statements, indexes):
    """What is wrong with the grants, as sentences (none: exact)."""
    problems = []
    all_granted = set().union(*(actions for actions, _ in statements.values()))
    for action in sorted(set(needed) - all_granted):
        problems.append(f"the policy lacks {action} (called at {', '.join(needed[action])})")
    for action in sorted(all_granted - set(needed)):
        problems.append(f"the policy grants {action}, which the code never calls")
    item_actions, item_resource = statements.get("Items", (set(), ""))
    stream_actions, stream_resource = statements.get("Stream", (set(), ""))
    index_actions, index_resource = statements.get("Indexes", (set(), ""))
    if item_actions & STREAM_ACTIONS:
        problems.append(f"stream actions granted on the table: {item_actions & STREAM_ACTIONS}")
    if stream_actions - STREAM_ACTIONS:
        problems.append(f"non-stream actions on the stream: {stream_actions - STREAM_ACTIONS}")
    if item_actions and item_resource != {"Fn::GetAtt": ["UddTable", "Arn"]}:
        problems.append(f"item actions are not on the table's ARN alone: {item_resource}")
    if stream_actions and stream_resource != {"Fn::GetAtt": ["UddTable", "StreamArn"]}:
        problems.append(f"stream actions are not on the stream's ARN alone: {stream_resource}")
    want_index = {"dynamodb:Query"} if indexes and "dynamodb:Query" in needed else set()
    if index_actions != want_index:
        problems.append(f"index actions {sorted(index_actions)}, the code needs {sorted(want_index)}")
    if index_actions and index_resource != {"Fn::Sub": "${UddTable.Arn}/index/*"}:
        problems.append(f"index actions are not on the indexes: {index_resource}")
    return problems


class ThePolicyIsExact(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.operations = sdk_operations()
        cls.sources = service_sources()
        cls.template = load(TEMPLATE)

    def test_the_sdk_lists_its_operations(self):
        # The oracle itself: both clients found, with the calls the game is known to make.
        for op in ("get_item", "transact_write_items", "query", "get_records"):
            self.assertIn(op, self.operations)
        self.assertGreater(len(self.operations), 50)

    def test_the_task_role_grants_exactly_what_the_code_calls(self):
        needed = called(self.sources, self.operations)
        problems = compare(needed, granted(self.template), uses_indexes(self.sources))
        self.assertEqual(problems, [], "\n".join(problems))

    def test_an_operation_added_to_the_code_without_the_policy_fails(self):
        sources = dict(self.sources)
        sources["app/src/new.rs"] = "fn f(db: &Db) { db.client.list_tables().send(); }"
        problems = compare(called(sources, self.operations), granted(self.template), True)
        self.assertTrue(any("lacks dynamodb:ListTables" in p for p in problems), problems)
        sources["app/src/new.rs"] = "fn f() { let c = ConditionCheck::builder(); }"
        needed = called(sources, self.operations)
        self.assertIn("dynamodb:ConditionCheckItem", needed)

    def test_an_action_the_code_does_not_call_fails(self):
        statements = granted(self.template)
        actions, resource = statements["Items"]
        statements["Items"] = (actions | {"dynamodb:CreateTable"}, resource)
        problems = compare(called(self.sources, self.operations), statements, True)
        self.assertTrue(any("grants dynamodb:CreateTable" in p for p in problems), problems)

    def test_operator_calls_and_tests_are_not_the_service(self):
        needed = called(self.sources, self.operations)
        self.assertNotIn("dynamodb:CreateTable", needed)
        self.assertNotIn("dynamodb:UpdateTimeToLive", needed)
        marked = {"app/src/x.rs": "// iam: operator\nlet r = self.client\n    .create_table();"}
        self.assertEqual(called(marked, self.operations), {})
        unmarked = {"app/src/x.rs": "let r = self.client.create_table();"}
        self.assertIn("dynamodb:CreateTable", called(unmarked, self.operations))
        tested = {"app/src/x.rs": "#[cfg(test)]\nmod tests { fn f() { c.client.list_tables(); } }"}
        self.assertEqual(called(tested, self.operations), {})


class TheTableIsTheSame(unittest.TestCase):
    def test_the_service_table_is_the_table_template_with_recovery_and_protection(self):
        service = load(TEMPLATE)["Resources"]["UddTable"]
        table = load(TABLE_TEMPLATE)["Resources"]["UddTable"]
        properties = dict(service["Properties"])
        self.assertIs(properties.pop("DeletionProtectionEnabled"), True)
        self.assertEqual(
            properties["PointInTimeRecoverySpecification"], {"PointInTimeRecoveryEnabled": True})
        self.assertEqual(properties, table["Properties"])
        self.assertEqual(service["DeletionPolicy"], "Retain")


if __name__ == "__main__":
    unittest.main()
