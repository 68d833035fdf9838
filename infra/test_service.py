"""The service template against the code: run by `./udd test` (python -m unittest).

1. The task role grants exactly the IAM actions the server's code calls: every DynamoDB and
   DynamoDB Streams operation the source sends (any method of the SDK's clients, as the SDK
   itself lists its operations), and every kind of action inside its transactions, mapped to
   IAM actions as the AWS documentation maps them. One missing fails; one more fails.
2. Item actions are granted on the table, queries on its indexes, stream reads on its stream.
3. The table is a stack of its own (infra/udd-table.yaml, which a Rust test keeps equal to the
   table the code creates: point-in-time recovery, deletion protection, kept when deleted); the
   service imports what it exports and holds no table.
4. What a first day on AWS needs: the load balancer checks liveness (`/livez`, a route of the
   server) not the table; the tasks keep idle connections longer than the load balancer; its own
   5xx alarm; throttle alarms that FILL each metric and count every global index; a certificate
   and an https:// origin only together; `/internal/*` answered 404 by the load balancer; the
   task may protect itself from scale-in (the one ECS action it is granted).

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


def granted(template, policy_name="udd-table"):
    """The task role's statements in one of its policies (the game's, by default):
    {sid: (actions, resource as the template writes it)}."""
    role = template["Resources"]["TaskRole"]["Properties"]
    statements = {}
    for policy in role["Policies"]:
        if policy["PolicyName"] != policy_name:
            continue
        for statement in policy["PolicyDocument"]["Statement"]:
            assert statement["Effect"] == "Allow", statement
            actions = statement["Action"]
            actions = [actions] if isinstance(actions, str) else actions
            statements[statement["Sid"]] = (set(actions), statement["Resource"])
    return statements


def imported(name):
    """The service's reference to one of the table stack's exports."""
    return {"Fn::ImportValue": {"Fn::Sub": "${TableStack}-" + name}}


def imports(node):
    """Every export name the template imports (as written, `${TableStack}-…`)."""
    if isinstance(node, dict):
        if set(node) == {"Fn::ImportValue"}:
            return [node["Fn::ImportValue"]["Fn::Sub"]]
        return [name for value in node.values() for name in imports(value)]
    if isinstance(node, list):
        return [name for value in node for name in imports(value)]
    return []


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
    if item_actions and item_resource != imported("TableArn"):
        problems.append(f"item actions are not on the table's ARN alone: {item_resource}")
    if stream_actions and stream_resource != {
            "Fn::Sub": ["${TableArn}/stream/*", {"TableArn": imported("TableArn")}]}:
        problems.append(f"stream actions are not on the table's streams alone: {stream_resource}")
    want_index = {"dynamodb:Query"} if indexes and "dynamodb:Query" in needed else set()
    if index_actions != want_index:
        problems.append(f"index actions {sorted(index_actions)}, the code needs {sorted(want_index)}")
    if index_actions and index_resource != {
            "Fn::Sub": ["${TableArn}/index/*", {"TableArn": imported("TableArn")}]}:
        problems.append(f"index actions are not on the indexes: {index_resource}")
    return problems


# The parameters' combinations that change which resources a stack has.
COMBINATIONS = [
    {"CertificateArn": certificate, "PublicOrigin": origin, "AlarmTopicArn": topic,
     "AlarmEmail": email}
    for certificate, origin in (("", ""), ("arn:aws:acm:eu-west-1:1:certificate/x",
                                           "https://udd.example"))
    for topic, email in (("", "ops@udd.example"), ("arn:aws:sns:eu-west-1:1:udd", ""))
]


def resolved(template, parameters):
    """The template as a stack with `parameters` has it: its conditions evaluated, resources and
    outputs under a false one left out, each Fn::If taken and AWS::NoValue dropped."""
    def value(node):
        if isinstance(node, dict) and set(node) == {"Ref"} and node["Ref"] in parameters:
            return parameters[node["Ref"]]
        return node

    def holds(node):
        if isinstance(node, dict) and set(node) == {"Condition"}:
            return conditions[node["Condition"]]
        (name, args), = node.items()
        if name == "Fn::Not":
            return not holds(args[0])
        if name == "Fn::Equals":
            return value(args[0]) == value(args[1])
        if name == "Fn::And":
            return all(holds(a) for a in args)
        if name == "Fn::Or":
            return any(holds(a) for a in args)
        raise ValueError(f"a condition the test cannot read: {node}")

    conditions = {}
    for name, node in template.get("Conditions", {}).items():
        conditions[name] = holds(node)
    no_value = object()

    def walk(node):
        if isinstance(node, dict):
            if set(node) == {"Fn::If"}:
                name, yes, no = node["Fn::If"]
                return walk(yes if conditions[name] else no)
            if node == {"Ref": "AWS::NoValue"}:
                return no_value
            out = {k: walk(v) for k, v in node.items()}
            return {k: v for k, v in out.items() if v is not no_value}
        if isinstance(node, list):
            return [v for v in (walk(x) for x in node) if v is not no_value]
        return node

    out = {}
    for section in ("Resources", "Outputs"):
        out[section] = {name: walk(r) for name, r in template.get(section, {}).items()
                        if conditions.get(r.get("Condition"), True)}
    return out


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


def series_constants():
    """Udd's metric names from app/src/store/metrics.rs, and those registered as histograms."""
    source = (ROOT / "app" / "src" / "store" / "metrics.rs").read_text()
    names = dict(re.findall(r'pub const (\w+): &str = "(udd_\w+)"', source))
    described = (ROOT / "app" / "src" / "http" / "metrics.rs").read_text()
    histograms = {names[c] for c in re.findall(r"describe_histogram!\(\s*(\w+)", described)}
    return set(names.values()), histograms


class TheCollector(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.template = load(TEMPLATE)
        cls.resources = cls.template["Resources"]
        task = cls.resources["TaskDefinition"]["Properties"]
        cls.containers = {c["Name"]: c for c in task["ContainerDefinitions"]}
        env = {e["Name"]: e["Value"] for e in cls.containers["collector"]["Environment"]}
        # The configs as the task gets them, the template's ${...} filled with stand-ins.
        fill = lambda text: re.sub(r"\$\{[^}]+\}", "x", text)
        cls.scrape = fill(env["PROMETHEUS_CONFIG_CONTENT"]["Fn::Sub"])
        cls.agent = json.loads(fill(env["CW_CONFIG_CONTENT"]["Fn::Sub"]))

    def test_it_scrapes_the_games_metrics_address_beside_it_and_the_game_does_not_need_it(self):
        cli = (ROOT / "server" / "src" / "cli.rs").read_text()
        default = re.search(r'env = "UDD_METRICS_ADDRESS", default_value = "([^"]+)"', cli).group(1)
        game_env = {e["Name"] for e in self.containers["udd"]["Environment"]}
        self.assertNotIn("UDD_METRICS_ADDRESS", game_env)
        self.assertIn(f'targets: ["{default}"]', self.scrape)
        self.assertIn("job_name: udd", self.scrape)
        self.assertIs(self.containers["collector"]["Essential"], False)
        self.assertIs(self.containers["udd"]["Essential"], True)

    def test_every_alarm_on_udds_series_reads_a_series_the_collector_sends(self):
        names, histograms = series_constants()
        prometheus = self.agent["logs"]["metrics_collected"]["prometheus"]
        self.assertEqual(prometheus["prometheus_config_path"], "env:PROMETHEUS_CONFIG_CONTENT")
        declarations = prometheus["emf_processor"]["metric_declaration"]
        self.assertEqual(prometheus["emf_processor"]["metric_namespace"], "Udd")
        alarms = [a["Properties"] for a in self.resources.values()
                  if a["Type"] == "AWS::CloudWatch::Alarm"
                  and a["Properties"].get("Namespace") == "Udd"]
        self.assertGreaterEqual(len(alarms), 5)
        for alarm in alarms:
            metric = alarm["MetricName"]
            self.assertIn(metric, names, f"{metric} is not one of Udd's series")
            self.assertNotIn(metric, histograms, f"the agent drops histograms: {metric}")
            dimensions = [d["Name"] for d in alarm["Dimensions"]]
            sent = [d for d in declarations
                    if d["source_labels"] == ["job"] and re.search(d["label_matcher"], "udd")
                    and any(re.search(sel, metric) for sel in d["metric_selectors"])
                    and dimensions in d["dimensions"]]
            self.assertTrue(sent, f"no declaration sends {metric} by {dimensions}")
        # Each declaration's dimensions are labels the scrape or the series carry.
        self.assertIn("Stack: x", self.scrape)

    def test_the_collector_may_write_its_own_log_group_and_nothing_else(self):
        # The oracle: the log actions of the agent's documented managed policy,
        # CloudWatchAgentServerPolicy ("Create IAM roles and users for use with the CloudWatch
        # agent", Amazon CloudWatch User Guide); its other actions serve what this agent is not
        # configured to do (cloudwatch:PutMetricData, ec2:Describe*, xray:*, ssm:GetParameter).
        documented_log_actions = {"logs:PutLogEvents", "logs:PutRetentionPolicy",
                                  "logs:DescribeLogStreams", "logs:DescribeLogGroups",
                                  "logs:CreateLogStream", "logs:CreateLogGroup"}
        statements = granted(self.template, "udd-metrics")
        self.assertEqual(set(statements), {"Metrics", "ListGroups"})
        actions, resource = statements["Metrics"]
        listing, everywhere = statements["ListGroups"]
        self.assertEqual(actions | listing, documented_log_actions)
        self.assertEqual(listing, {"logs:DescribeLogGroups"})
        self.assertEqual(resource, [{"Fn::GetAtt": ["MetricsLogGroup", "Arn"]},
                                    {"Fn::Sub": "${MetricsLogGroup.Arn}:log-stream:*"}])
        self.assertEqual(everywhere, {"Fn::Sub": "arn:${AWS::Partition}:logs:${AWS::Region}:"
                                                 "${AWS::AccountId}:log-group:*"})
        prometheus = self.agent["logs"]["metrics_collected"]["prometheus"]
        env = {e["Name"]: e["Value"] for e in self.containers["collector"]["Environment"]}
        self.assertIn('"log_group_name": "${MetricsLogGroup}"', env["CW_CONFIG_CONTENT"]["Fn::Sub"])
        self.assertEqual(prometheus["log_group_name"], "x")


class TheTableIsItsOwnStack(unittest.TestCase):
    def test_the_table_stack_keeps_the_data_and_exports_what_the_service_imports(self):
        table = load(TABLE_TEMPLATE)
        resource = table["Resources"]["UddTable"]
        self.assertIs(resource["Properties"]["DeletionProtectionEnabled"], True)
        self.assertEqual(resource["Properties"]["PointInTimeRecoverySpecification"],
                         {"PointInTimeRecoveryEnabled": True})
        self.assertEqual((resource["DeletionPolicy"], resource["UpdateReplacePolicy"]),
                         ("Retain", "Retain"))
        exported = {output["Export"]["Name"]["Fn::Sub"].replace("${AWS::StackName}", "${TableStack}")
                    for output in table["Outputs"].values() if "Export" in output}
        service = load(TEMPLATE)
        wanted = set(imports(service["Resources"])) | set(imports(service["Outputs"]))
        # The stream by the table's ARN (any label), never the export of one stream's ARN.
        self.assertEqual(wanted, {"${TableStack}-TableName", "${TableStack}-TableArn"})
        self.assertLessEqual(wanted, exported)

    def test_the_table_takes_an_on_demand_ceiling_only_when_asked(self):
        table = load(TABLE_TEMPLATE)
        for read, write, wanted in [
            ("-1", "-1", None),
            ("4000", "-1", {"MaxReadRequestUnits": {"Ref": "MaxReadUnits"}}),
            ("-1", "1500", {"MaxWriteRequestUnits": {"Ref": "MaxWriteUnits"}}),
            ("4000", "1500", {"MaxReadRequestUnits": {"Ref": "MaxReadUnits"},
                              "MaxWriteRequestUnits": {"Ref": "MaxWriteUnits"}}),
        ]:
            with self.subTest(read=read, write=write):
                stack = resolved(table, {"MaxReadUnits": read, "MaxWriteUnits": write,
                                         "TableName": "udd"})
                properties = stack["Resources"]["UddTable"]["Properties"]
                self.assertEqual(properties.get("OnDemandThroughput"), wanted)
                self.assertEqual(properties["BillingMode"], "PAY_PER_REQUEST")

    def test_the_service_holds_no_table(self):
        service = load(TEMPLATE)
        kinds = {r["Type"] for r in service["Resources"].values()}
        self.assertNotIn("AWS::DynamoDB::Table", kinds)


class AFirstDay(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.template = load(TEMPLATE)
        cls.resources = cls.template["Resources"]
        cls.router = (ROOT / "app" / "src" / "http" / "router.rs").read_text()

    def of_type(self, kind):
        return {name: r for name, r in self.resources.items() if r["Type"] == kind}

    def container(self):
        task = self.resources["TaskDefinition"]["Properties"]
        return next(c for c in task["ContainerDefinitions"] if c["Name"] == "udd")

    def test_the_load_balancer_checks_liveness_a_route_without_the_table(self):
        path = self.resources["TargetGroup"]["Properties"]["HealthCheckPath"]
        self.assertEqual(path, "/livez")
        self.assertIn(f'.route("{path}", get(health::livez))', self.router)

    def test_tasks_keep_idle_connections_longer_than_the_load_balancer(self):
        attributes = self.resources["LoadBalancer"]["Properties"]["LoadBalancerAttributes"]
        idle = int(next(a["Value"] for a in attributes
                        if a["Key"] == "idle_timeout.timeout_seconds"))
        parameter = self.template["Parameters"]["KeepAliveSeconds"]
        self.assertGreater(int(parameter["MinValue"]), idle)
        self.assertGreater(int(parameter["Default"]), idle)
        env = {e["Name"]: e["Value"] for e in self.container()["Environment"]}
        self.assertEqual(env["UDD_KEEP_ALIVE_SECS"], {"Ref": "KeepAliveSeconds"})

    def test_streams_end_themselves_before_the_load_balancer_cuts_them(self):
        # ECS deregisters a task, waits for it to drain (at most the deregistration delay, when
        # the load balancer cuts what is still open), then sends SIGTERM; after StopTimeout,
        # SIGKILL. Every stream must end by itself within the delay: its life, then the round in
        # play (a reveal just inside the quiet gap, the longest window, the grace), then the
        # browser's reconnect.
        def constant(path, pattern):
            text = (ROOT / path).read_text()
            return int(re.search(pattern, text)[1].replace("_", ""))
        gap = constant("app/src/live/hub/stream.rs", r"pub const QUIET_GAP_MS: i64 = ([0-9_]+);")
        reconnect = constant("app/src/live/hub/stream.rs",
                             r"RECONNECT_AFTER: Duration = Duration::from_millis\(([0-9_]+)\)")
        window = constant("app/src/rooms/model.rs",
                          r"pub const WINDOW_MS: std::ops::RangeInclusive<u16> = [0-9_]+..=([0-9_]+);")
        grace = constant("app/src/game/timing.rs", r"pub const GRACE_MS: u32 = ([0-9_]+);")
        default_life = constant("app/src/live/hub/stream.rs",
                                r"pub const STREAM_LIFE: Duration = Duration::from_secs\(([0-9_]+)\)")
        env = {e["Name"]: e["Value"] for e in self.container()["Environment"]}
        life = int(env["UDD_STREAM_LIFE_SECS"])
        self.assertEqual(life, default_life, "the template runs the code's default life")
        attributes = self.resources["TargetGroup"]["Properties"]["TargetGroupAttributes"]
        delay = int(next(a["Value"] for a in attributes
                         if a["Key"] == "deregistration_delay.timeout_seconds"))
        longest = life * 1000 + gap + window + grace + reconnect
        self.assertGreaterEqual(delay * 1000, longest + 5_000, "a stream outlives the delay")
        self.assertLessEqual(delay, life + 60, "a stopped task drains no longer than it must")
        # Then SIGTERM: the server's grace fits before SIGKILL (Fargate allows 120 s at most).
        stop = self.container()["StopTimeout"]
        self.assertGreater(stop * 1000, int(env["UDD_SHUTDOWN_GRACE_MS"]))
        self.assertLessEqual(stop, 120)

    def test_the_load_balancers_own_5xx_has_an_alarm(self):
        alarms = self.of_type("AWS::CloudWatch::Alarm").values()
        names = {a["Properties"].get("MetricName") for a in alarms}
        self.assertIn("HTTPCode_ELB_5XX_Count", names)
        self.assertIn("HTTPCode_Target_5XX_Count", names)

    def test_the_throttle_alarm_fills_each_metric_and_counts_every_global_index(self):
        alarm = self.resources["ThrottledRequestsAlarm"]["Properties"]
        metrics = [m for m in alarm["Metrics"] if "MetricStat" in m]
        expression = next(m["Expression"] for m in alarm["Metrics"] if "Expression" in m)
        for metric in metrics:
            self.assertIn(f"FILL({metric['Id']}, 0)", expression)
        covered = set()
        for metric in metrics:
            stat = metric["MetricStat"]["Metric"]
            dims = {d["Name"]: d["Value"] for d in stat["Dimensions"]}
            self.assertEqual(dims["TableName"], imported("TableName"))
            covered.add((stat["MetricName"], dims.get("GlobalSecondaryIndexName")))
        table = load(TABLE_TEMPLATE)["Resources"]["UddTable"]["Properties"]
        for index in [None] + [g["IndexName"] for g in table["GlobalSecondaryIndexes"]]:
            for name in ("ReadThrottleEvents", "WriteThrottleEvents"):
                self.assertIn((name, index), covered)

    def test_a_certificate_and_an_https_origin_go_together(self):
        origin = self.template["Parameters"]["PublicOrigin"]
        pattern = re.compile(origin["AllowedPattern"])
        for good in ("", "https://udd.example", "https://play.udd.example:8443"):
            self.assertTrue(pattern.fullmatch(good), good)
        for bad in ("http://udd.example", "udd.example", "https://udd.example/path"):
            self.assertFalse(pattern.fullmatch(bad), bad)
        rules = self.template["Rules"]
        with_certificate = rules["CertificateNeedsHttpsOrigin"]
        self.assertEqual(with_certificate["RuleCondition"],
                         {"Fn::Not": [{"Fn::Equals": [{"Ref": "CertificateArn"}, ""]}]})
        self.assertEqual(with_certificate["Assertions"][0]["Assert"],
                         {"Fn::Not": [{"Fn::Equals": [{"Ref": "PublicOrigin"}, ""]}]})
        with_origin = rules["HttpsOriginNeedsCertificate"]
        self.assertEqual(with_origin["RuleCondition"],
                         {"Fn::Not": [{"Fn::Equals": [{"Ref": "PublicOrigin"}, ""]}]})
        self.assertEqual(with_origin["Assertions"][0]["Assert"],
                         {"Fn::Not": [{"Fn::Equals": [{"Ref": "CertificateArn"}, ""]}]})

    def test_internal_paths_are_answered_404_by_the_load_balancer_on_every_listener(self):
        for parameters in COMBINATIONS:
            resources = resolved(self.template, parameters)["Resources"]
            listeners = {name: r for name, r in resources.items()
                         if r["Type"] == "AWS::ElasticLoadBalancingV2::Listener"}
            forwarding = {name for name, r in listeners.items()
                          if r["Properties"]["DefaultActions"][0]["Type"] == "forward"}
            guarded = {}
            for rule in resources.values():
                if rule["Type"] != "AWS::ElasticLoadBalancingV2::ListenerRule":
                    continue
                props = rule["Properties"]
                paths = [v for c in props["Conditions"] if c["Field"] == "path-pattern"
                         for v in c["PathPatternConfig"]["Values"]]
                action = props["Actions"][0]
                if paths == ["/internal/*"] and action["Type"] == "fixed-response":
                    listener = props["ListenerArn"]["Ref"]
                    self.assertIn(listener, listeners, parameters)
                    guarded[listener] = action["FixedResponseConfig"]["StatusCode"]
            self.assertEqual(len(forwarding), 1, parameters)
            self.assertEqual(guarded, {name: "404" for name in forwarding}, parameters)
        self.assertIn('POKES_PATH: &str = "/internal/', (ROOT / "app" / "src" / "live" /
                                                        "peers.rs").read_text())

    def test_one_listener_per_port_in_every_combination_so_adding_a_domain_is_an_update(self):
        ports = {}
        for parameters in COMBINATIONS:
            resources = resolved(self.template, parameters)["Resources"]
            by_port = {}
            for name, r in resources.items():
                if r["Type"] == "AWS::ElasticLoadBalancingV2::Listener":
                    by_port.setdefault(r["Properties"]["Port"], []).append(name)
            self.assertTrue(all(len(names) == 1 for names in by_port.values()),
                            f"{parameters}: {by_port}")
            certificate = parameters["CertificateArn"] != ""
            self.assertEqual(set(by_port), {80, 443} if certificate else {80}, parameters)
            port_80 = resources[by_port[80][0]]["Properties"]["DefaultActions"][0]
            self.assertEqual(port_80["Type"], "redirect" if certificate else "forward")
            if certificate:
                self.assertEqual(port_80["RedirectConfig"]["Protocol"], "HTTPS")
            ports[certificate] = by_port
        # The same resource holds port 80 with a certificate and without: an update changes
        # its action, never makes a second listener on the port.
        self.assertEqual(ports[True][80], ports[False][80])

    def test_an_http_only_deploy_says_it_is_for_a_trial(self):
        for parameters in COMBINATIONS:
            outputs = resolved(self.template, parameters)["Outputs"]
            certificate = parameters["CertificateArn"] != ""
            self.assertEqual("Warning" in outputs, not certificate, parameters)
            if not certificate:
                self.assertIn("clear text", outputs["Warning"]["Value"])

    def test_the_service_sends_no_count_the_scaling_target_holds_it(self):
        service = self.resources["Service"]["Properties"]
        self.assertNotIn("DesiredCount", service)
        target = self.resources["ScalableTarget"]["Properties"]
        self.assertEqual(target["MinCapacity"], {"Ref": "DesiredCount"})
        self.assertEqual(target["ResourceId"],
                         {"Fn::Sub": "service/${Cluster}/${Service.Name}"})

    def test_every_alarm_reaches_someone_in_every_combination(self):
        rule = self.template["Rules"]["AlarmsReachSomeone"]["Assertions"][0]["Assert"]
        self.assertEqual(rule, {"Fn::Or": [
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "AlarmTopicArn"}, ""]}]},
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "AlarmEmail"}, ""]}]}]})
        for parameters in COMBINATIONS:
            resources = resolved(self.template, parameters)["Resources"]
            own = parameters["AlarmTopicArn"] != ""
            self.assertEqual("AlarmTopic" in resources, not own, parameters)
            target = {"Ref": "AlarmTopicArn"} if own else {"Ref": "AlarmTopic"}
            if not own:
                self.assertEqual(resources["AlarmTopic"]["Properties"]["Subscription"],
                                 [{"Protocol": "email", "Endpoint": {"Ref": "AlarmEmail"}}])
            alarms = {n: r for n, r in resources.items() if r["Type"] == "AWS::CloudWatch::Alarm"}
            self.assertGreaterEqual(len(alarms), 12)
            for name, alarm in alarms.items():
                self.assertEqual(alarm["Properties"].get("AlarmActions"), [target], name)

    def test_tasks_below_the_minimum_memory_and_slow_answers_have_alarms(self):
        alarms = [a["Properties"] for a in self.of_type("AWS::CloudWatch::Alarm").values()]
        by_metric = {a.get("MetricName"): a for a in alarms}
        below = by_metric["HealthyHostCount"]
        self.assertEqual((below["Threshold"], below["ComparisonOperator"]),
                         ({"Ref": "DesiredCount"}, "LessThanThreshold"))
        self.assertEqual(below["TreatMissingData"], "breaching")
        memory = by_metric["MemoryUtilization"]
        self.assertEqual(memory["Namespace"], "AWS/ECS")
        slow = by_metric["TargetResponseTime"]
        self.assertEqual((slow["ExtendedStatistic"], slow["Threshold"]), ("p99", 1))

    def test_the_collectors_image_is_pinned_to_a_release(self):
        image = self.template["Parameters"]["CollectorImage"]["Default"]
        self.assertRegex(image, r"^public\.ecr\.aws/cloudwatch-agent/cloudwatch-agent:"
                                r"\d+\.\d+\.\d+b\d+$")
        container = next(c for c in self.resources["TaskDefinition"]["Properties"]
                         ["ContainerDefinitions"] if c["Name"] != "udd")
        self.assertEqual(container["Image"], {"Ref": "CollectorImage"})

    def test_tasks_scale_on_their_open_streams_below_the_cap(self):
        policy = self.resources["StreamsScaling"]["Properties"]
        config = policy["TargetTrackingScalingPolicyConfiguration"]
        metric = config["CustomizedMetricSpecification"]
        metrics_rs = (ROOT / "app" / "src" / "store" / "metrics.rs").read_text()
        self.assertIn(f'STREAMS_OPEN: &str = "{metric["MetricName"]}"', metrics_rs)
        self.assertEqual((metric["Namespace"], metric["Statistic"]), ("Udd", "Average"))
        task = self.resources["TaskDefinition"]["Properties"]
        collector = json.dumps(task)
        self.assertIn(f"^{metric['MetricName']}$", collector, "the collector sends it")
        hub = (ROOT / "app" / "src" / "live" / "hub.rs").read_text()
        cap = int(re.search(r"pub const MAX_STREAMS: usize = ([0-9_]+);", hub)[1].replace("_", ""))
        self.assertLess(config["TargetValue"], cap / 2, "room for a burst while tasks start")
        self.assertEqual(policy["ScalingTargetId"], {"Ref": "ScalableTarget"})

    def test_the_task_may_protect_itself_from_scale_in_and_do_nothing_else_in_ecs(self):
        # The server asks the agent for protection at the documented path...
        asking = [name for name, text in service_sources().items()
                  if "task-protection/v1/state" in without_tests(text)]
        self.assertEqual(asking, ["app/src/http/ecs/protection.rs"])
        # ...which calls UpdateTaskProtection with the task's role: granted on this cluster's
        # tasks, and no other ECS action in any of the role's policies.
        statements = granted(self.template, "udd-task-protection")
        self.assertEqual(set(statements), {"Protection"})
        actions, resource = statements["Protection"]
        self.assertEqual(actions, {"ecs:UpdateTaskProtection"})
        self.assertEqual(resource, {"Fn::Sub": "arn:${AWS::Partition}:ecs:${AWS::Region}:"
                                               "${AWS::AccountId}:task/${Cluster}/*"})
        self.assertEqual(self.resources["Cluster"]["Type"], "AWS::ECS::Cluster")
        for policy in self.resources["TaskRole"]["Properties"]["Policies"]:
            if policy["PolicyName"] == "udd-task-protection":
                continue
            for statement in policy["PolicyDocument"]["Statement"]:
                action = statement["Action"]
                for a in [action] if isinstance(action, str) else action:
                    self.assertFalse(a.startswith("ecs:"), f"{policy['PolicyName']} grants {a}")


if __name__ == "__main__":
    unittest.main()
