//! The dependency graph of a plan: validation of ids and dependencies, the topological order
//! (Kahn's algorithm) and, when that order cannot cover every action, the cycle
//! found by depth-first search so the error can name it.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use super::action::ExecAction;
use super::error::ExecutorError;

/// A validated plan graph over action indices (positions in the input slice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanGraph {
    order: Vec<usize>,
    dependencies: Vec<Vec<usize>>,
    dependents: Vec<Vec<usize>>,
}

impl PlanGraph {
    /// Validates `actions` (non-empty unique ids, tools named, known dependencies, no cycle) and
    /// sorts them.
    pub fn build(actions: &[ExecAction]) -> Result<Self, ExecutorError> {
        let index = index_ids(actions)?;
        let mut dependencies = Vec::with_capacity(actions.len());
        let mut dependents = vec![Vec::new(); actions.len()];
        for (i, action) in actions.iter().enumerate() {
            let mut deps = Vec::with_capacity(action.dependencies.len());
            for dep in &action.dependencies {
                let &d =
                    index
                        .get(dep.as_str())
                        .ok_or_else(|| ExecutorError::UnknownDependency {
                            action: action.id.clone(),
                            dependency: dep.clone(),
                        })?;
                // A dependency listed twice is still one edge.
                if !deps.contains(&d) {
                    deps.push(d);
                    dependents[d].push(i);
                }
            }
            dependencies.push(deps);
        }
        let order = kahn(&dependencies, &dependents);
        if order.len() != actions.len() {
            return Err(ExecutorError::Cycle {
                path: find_cycle(actions, &dependencies),
            });
        }
        Ok(Self {
            order,
            dependencies,
            dependents,
        })
    }

    /// Every action index, each after all its dependencies; ties go to the earlier input.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Indices of the actions `index` depends on.
    pub fn dependencies(&self, index: usize) -> &[usize] {
        &self.dependencies[index]
    }

    /// Every action that depends on `index`, directly or through others, in no set order.
    pub fn transitive_dependents(&self, index: usize) -> HashSet<usize> {
        let mut seen = HashSet::new();
        let mut stack = vec![index];
        while let Some(current) = stack.pop() {
            for &next in &self.dependents[current] {
                if seen.insert(next) {
                    stack.push(next);
                }
            }
        }
        seen
    }
}

fn index_ids(actions: &[ExecAction]) -> Result<HashMap<&str, usize>, ExecutorError> {
    let mut index = HashMap::with_capacity(actions.len());
    for (i, action) in actions.iter().enumerate() {
        if action.id.trim().is_empty() {
            return Err(ExecutorError::EmptyId { index: i });
        }
        if action.tool.trim().is_empty() {
            return Err(ExecutorError::EmptyTool {
                action: action.id.clone(),
            });
        }
        if index.insert(action.id.as_str(), i).is_some() {
            return Err(ExecutorError::DuplicateId(action.id.clone()));
        }
    }
    Ok(index)
}

/// Kahn's algorithm with a min-heap instead of a FIFO queue, so that among actions that are
/// free at the same time the earlier input comes first and the order is deterministic.
fn kahn(dependencies: &[Vec<usize>], dependents: &[Vec<usize>]) -> Vec<usize> {
    let mut in_degree: Vec<usize> = dependencies.iter().map(Vec::len).collect();
    let mut ready: BinaryHeap<Reverse<usize>> = in_degree
        .iter()
        .enumerate()
        .filter(|(_, d)| **d == 0)
        .map(|(i, _)| Reverse(i))
        .collect();
    let mut order = Vec::with_capacity(dependencies.len());
    while let Some(Reverse(current)) = ready.pop() {
        order.push(current);
        for &next in &dependents[current] {
            in_degree[next] -= 1;
            if in_degree[next] == 0 {
                ready.push(Reverse(next));
            }
        }
    }
    order
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Unvisited,
    OnStack,
    Done,
}

/// Depth-first search along dependency edges; the first back edge closes the cycle, returned
/// as ids from its first member round to it again.
fn find_cycle(actions: &[ExecAction], dependencies: &[Vec<usize>]) -> Vec<String> {
    let mut marks = vec![Mark::Unvisited; actions.len()];
    let mut stack = Vec::new();
    for start in 0..actions.len() {
        if marks[start] == Mark::Unvisited
            && let Some(cycle) = dfs(start, dependencies, &mut marks, &mut stack)
        {
            return cycle.into_iter().map(|i| actions[i].id.clone()).collect();
        }
    }
    // Only reached if Kahn and DFS disagree, which would be a bug in one of them; naming every
    // action still gives the planner something true to act on.
    actions.iter().map(|a| a.id.clone()).collect()
}

fn dfs(
    node: usize,
    dependencies: &[Vec<usize>],
    marks: &mut [Mark],
    stack: &mut Vec<usize>,
) -> Option<Vec<usize>> {
    marks[node] = Mark::OnStack;
    stack.push(node);
    for &dep in &dependencies[node] {
        match marks[dep] {
            Mark::Unvisited => {
                if let Some(cycle) = dfs(dep, dependencies, marks, stack) {
                    return Some(cycle);
                }
            }
            Mark::OnStack => {
                let from = stack.iter().position(|&n| n == dep).unwrap_or(0);
                let mut cycle = stack[from..].to_vec();
                cycle.push(dep);
                return Some(cycle);
            }
            Mark::Done => {}
        }
    }
    stack.pop();
    marks[node] = Mark::Done;
    None
}
