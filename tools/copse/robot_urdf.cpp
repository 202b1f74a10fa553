/* SPDX-License-Identifier: MIT */
// The thin C++ side of `copse robot`: urdfdom parses the URDF (TinyXML an SRDF), and this file
// copies what the robot commands need into the plain C structs of robot_urdf.h. No logic beyond
// the copy and the link order lives here.
#include "robot_urdf.h"

#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

// urdfdom reports through console_bridge: keep the first error (and warnings) for our message.
class capture : public console_bridge::OutputHandler {
  public:
    std::string first;
    void log(const std::string &text, console_bridge::LogLevel level, const char *, int) override
    {
        if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR && first.empty())
            first = text;
    }
};

char *dup(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1u));
    if (p != nullptr)
        std::memcpy(p, s.c_str(), s.size() + 1u);
    return p;
}

void origin_of(const urdf::Pose &p, urdf_origin *o)
{
    o->xyz[0] = p.position.x;
    o->xyz[1] = p.position.y;
    o->xyz[2] = p.position.z;
    o->quat[0] = p.rotation.x;
    o->quat[1] = p.rotation.y;
    o->quat[2] = p.rotation.z;
    o->quat[3] = p.rotation.w;
    p.rotation.getRPY(o->rpy[0], o->rpy[1], o->rpy[2]);
}

int fail(char *err, size_t cap, const std::string &text)
{
    std::snprintf(err, cap, "%s", text.c_str());
    return -1;
}

void geom_of(const urdf::Collision &c, urdf_geom *g)
{
    std::memset(g, 0, sizeof *g);
    origin_of(c.origin, &g->origin);
    g->scale[0] = g->scale[1] = g->scale[2] = 1.0;
    const urdf::Geometry *geo = c.geometry.get();
    switch (geo->type) {
    case urdf::Geometry::MESH: {
        const urdf::Mesh *m = static_cast<const urdf::Mesh *>(geo);
        g->kind = URDF_MESH;
        g->filename = dup(m->filename);
        g->scale[0] = m->scale.x;
        g->scale[1] = m->scale.y;
        g->scale[2] = m->scale.z;
        break;
    }
    case urdf::Geometry::BOX: {
        const urdf::Box *b = static_cast<const urdf::Box *>(geo);
        g->kind = URDF_BOX;
        g->size[0] = b->dim.x;
        g->size[1] = b->dim.y;
        g->size[2] = b->dim.z;
        break;
    }
    case urdf::Geometry::CYLINDER: {
        const urdf::Cylinder *y = static_cast<const urdf::Cylinder *>(geo);
        g->kind = URDF_CYLINDER;
        g->size[0] = y->radius;
        g->size[1] = y->length;
        break;
    }
    default: {
        const urdf::Sphere *s = static_cast<const urdf::Sphere *>(geo);
        g->kind = URDF_SPHERE;
        g->size[0] = s->radius;
        break;
    }
    }
}

int joint_kind(int t)
{
    switch (t) {
    case urdf::Joint::FIXED: return URDF_FIXED;
    case urdf::Joint::REVOLUTE: return URDF_REVOLUTE;
    case urdf::Joint::CONTINUOUS: return URDF_CONTINUOUS;
    case urdf::Joint::PRISMATIC: return URDF_PRISMATIC;
    case urdf::Joint::FLOATING: return URDF_FLOATING;
    case urdf::Joint::PLANAR: return URDF_PLANAR;
    default: return URDF_UNKNOWN;
    }
}

bool read_text(const char *path, std::string *text)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream s;
    s << in.rdbuf();
    *text = s.str();
    return true;
}

} // namespace

extern "C" int urdf_load(const char *path, urdf_robot *out, char *err, size_t err_cap)
{
    std::memset(out, 0, sizeof *out);
    std::string xml;
    if (!read_text(path, &xml))
        return fail(err, err_cap, std::string(path) + ": cannot open");
    capture cap;
    console_bridge::useOutputHandler(&cap);
    urdf::ModelInterfaceSharedPtr model;
    try {
        model = urdf::parseURDF(xml);
    } catch (const std::exception &e) {
        cap.first = cap.first.empty() ? e.what() : cap.first;
    }
    console_bridge::restorePreviousOutputHandler();
    if (!model)
        return fail(err, err_cap,
                    std::string(path) + ": not a valid URDF (urdfdom): " + (cap.first.empty() ? "parse failed" : cap.first));
    urdf::LinkConstSharedPtr root = model->getRoot();
    if (!root)
        return fail(err, err_cap, std::string(path) + ": not a valid URDF (urdfdom): no root link");

    // Root first, then breadth first: each link after its parent.
    std::vector<urdf::LinkConstSharedPtr> order{root};
    std::map<std::string, int> seen{{root->name, 1}};
    for (size_t i = 0; i < order.size(); i++)
        for (const urdf::LinkSharedPtr &c : order[i]->child_links) {
            if (seen[c->name]++ > 0) // urdfdom keeps one parent per link: a loop shows up here
                return fail(err, err_cap, std::string(path) + ": link '" + c->name +
                                              "' is reached twice (a kinematic loop, or the child of two joints): a "
                                              "URDF must be a tree");
            order.push_back(c);
        }
    std::vector<urdf::LinkSharedPtr> all;
    model->getLinks(all);
    if (all.size() != order.size())
        return fail(err, err_cap, std::string(path) + ": " + std::to_string(all.size() - order.size()) +
                                      " link(s) not reachable from the root link '" + root->name + "'");
    std::map<std::string, unsigned> joint_index;
    for (size_t i = 1; i < order.size(); i++)
        joint_index[order[i]->parent_joint->name] = static_cast<unsigned>(i - 1u);
    std::map<std::string, unsigned> link_index;
    for (size_t i = 0; i < order.size(); i++)
        link_index[order[i]->name] = static_cast<unsigned>(i);

    out->name = dup(model->getName());
    out->link_count = static_cast<unsigned>(order.size());
    out->joint_count = out->link_count - 1u;
    out->links = static_cast<urdf_link *>(std::calloc(out->link_count, sizeof(urdf_link)));
    out->joints = static_cast<urdf_joint *>(std::calloc(out->joint_count + 1u, sizeof(urdf_joint)));
    if (out->links == nullptr || out->joints == nullptr) {
        urdf_free(out);
        return fail(err, err_cap, "out of memory");
    }
    for (size_t i = 0; i < order.size(); i++) {
        const urdf::Link &l = *order[i];
        urdf_link *dst = &out->links[i];
        dst->name = dup(l.name);
        std::vector<urdf::CollisionSharedPtr> cols = l.collision_array;
        if (cols.empty() && l.collision)
            cols.push_back(l.collision);
        dst->geoms = static_cast<urdf_geom *>(std::calloc(cols.size() + 1u, sizeof(urdf_geom)));
        for (const urdf::CollisionSharedPtr &c : cols)
            if (c && c->geometry)
                geom_of(*c, &dst->geoms[dst->geom_count++]);
        if (i == 0)
            continue;
        const urdf::Joint &j = *l.parent_joint;
        urdf_joint *jd = &out->joints[i - 1u];
        jd->name = dup(j.name);
        jd->kind = joint_kind(j.type);
        jd->parent = link_index[j.parent_link_name];
        jd->child = static_cast<unsigned>(i);
        origin_of(j.parent_to_joint_origin_transform, &jd->origin);
        jd->axis[0] = j.axis.x;
        jd->axis[1] = j.axis.y;
        jd->axis[2] = j.axis.z;
        jd->mimic = -1;
        if (j.limits) {
            jd->has_limits = 1;
            jd->lower = j.limits->lower;
            jd->upper = j.limits->upper;
        }
        if (j.mimic) {
            jd->mimic_name = dup(j.mimic->joint_name);
            jd->multiplier = j.mimic->multiplier;
            jd->offset = j.mimic->offset;
            std::map<std::string, unsigned>::const_iterator m = joint_index.find(j.mimic->joint_name);
            if (m == joint_index.end()) {
                std::string text = std::string(path) + ": joint '" + j.name + "' mimics '" + j.mimic->joint_name +
                                   "', which is not a joint of this URDF";
                urdf_free(out);
                return fail(err, err_cap, text);
            }
            jd->mimic = static_cast<int>(m->second);
        }
    }
    return 0;
}

extern "C" void urdf_free(urdf_robot *robot)
{
    unsigned i, k;
    for (i = 0; robot->links != nullptr && i < robot->link_count; i++) {
        for (k = 0; k < robot->links[i].geom_count; k++)
            std::free(robot->links[i].geoms[k].filename);
        std::free(robot->links[i].geoms);
        std::free(robot->links[i].name);
    }
    for (i = 0; robot->joints != nullptr && i < robot->joint_count; i++) {
        std::free(robot->joints[i].name);
        std::free(robot->joints[i].mimic_name);
    }
    std::free(robot->links);
    std::free(robot->joints);
    std::free(robot->name);
    std::memset(robot, 0, sizeof *robot);
}

extern "C" int urdf_srdf_pairs(const char *path, char **names, unsigned *count, char *err, size_t err_cap)
{
    *names = nullptr;
    *count = 0;
    TiXmlDocument doc;
    if (!doc.LoadFile(path))
        return fail(err, err_cap, std::string(path) + ": not a readable SRDF: " + doc.ErrorDesc() + " (line " +
                                      std::to_string(doc.ErrorRow()) + ")");
    const TiXmlElement *robot = doc.FirstChildElement("robot");
    if (robot == nullptr)
        return fail(err, err_cap, std::string(path) + ": not an SRDF (no <robot> element)");
    std::string packed;
    for (const TiXmlElement *e = robot->FirstChildElement("disable_collisions"); e != nullptr;
         e = e->NextSiblingElement("disable_collisions")) {
        const char *a = e->Attribute("link1"), *b = e->Attribute("link2");
        if (a == nullptr || b == nullptr)
            return fail(err, err_cap, std::string(path) + ": line " + std::to_string(e->Row()) +
                                          ": <disable_collisions> needs link1 and link2");
        packed.append(a).push_back('\0');
        packed.append(b).push_back('\0');
        ++*count;
    }
    *names = static_cast<char *>(std::malloc(packed.size() + 1u));
    if (*names == nullptr)
        return fail(err, err_cap, "out of memory");
    std::memcpy(*names, packed.data(), packed.size());
    return 0;
}
